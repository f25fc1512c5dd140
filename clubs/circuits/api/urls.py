app_name = "circuits"
urlpatterns = []
