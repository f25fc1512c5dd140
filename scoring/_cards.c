/* scoring._cards: the innermost loops of reading and scoring a hand in C, and nothing else.
 *
 * hand_values(hands, values) parses four players' cards in the compact text form ("Ro Rc 7e
 * 1b") and takes each hand's value from scoring.cards.multiset_values(kings, real_31).
 *
 * situations(p0, p1, p2, p3, common) is scoring.hand.score._situations_py: which seat has the best
 * cards in each lance and what each seat holds in pares and juego, from HandValue.packed.
 *
 * bets_key(bets) names a betting given as JSON with one str, for scoring/jsonio.py's memo.
 *
 * Each is conservative: for anything but the plain common case it returns None, and the Python
 * code, which holds the rules and explains every error, does the work. None raises, except
 * MemoryError and a TypeError for a call with the wrong number of arguments.
 *
 * scoring/cards.py holds the rules this repeats: the text form of a card (_FAST), the deck order
 * (Card.index), multiset_index and the layout of HandValue.packed (PACKED_SHIFTS).
 * tests/scoring/test_cards_speedup.py checks that both agree, and tests/scoring runs the whole
 * engine with and without this module.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* A card is a rank then a suit, as the keys of _FAST: rank 1-7, a/A (as), s/S (sota), c/C
 * (caballo), r/R (rey), or 10, 11, 12, or as/AS; suit o/O, c/C, e/E, b/B. The rank case and the
 * suit case are independent ("rO" is a card).
 * rank char -> 1 + position in RANKS (1 2 3 4 5 6 7 10 11 12); suit char -> 1 + position in
 * SUITS (oros copas espadas bastos); 0 = not a card. */
static const unsigned char RANK_OF[128] = {
    ['1'] = 1, ['2'] = 2, ['3'] = 3, ['4'] = 4, ['5'] = 5, ['6'] = 6, ['7'] = 7,
    ['a'] = 1, ['A'] = 1, ['s'] = 8, ['S'] = 8, ['c'] = 9, ['C'] = 9, ['r'] = 10, ['R'] = 10,
};
static const unsigned char SUIT_OF[128] = {
    ['o'] = 1, ['O'] = 1, ['c'] = 2, ['C'] = 2, ['e'] = 3, ['E'] = 3, ['b'] = 4, ['B'] = 4,
};
/* C(n, k) for n < 13, k <= 4: the place of a multiset of four ranks in the order of
 * scoring.cards.multiset_index (the combinatorial number system). */
static const uint16_t CHOOSE[13][5] = {
    {1, 0, 0, 0, 0},      {1, 1, 0, 0, 0},      {1, 2, 1, 0, 0},      {1, 3, 3, 1, 0},
    {1, 4, 6, 4, 1},      {1, 5, 10, 10, 5},    {1, 6, 15, 20, 15},   {1, 7, 21, 35, 35},
    {1, 8, 28, 56, 70},   {1, 9, 36, 84, 126},  {1, 10, 45, 120, 210}, {1, 11, 55, 165, 330},
    {1, 12, 66, 220, 495},
};
#define MULTISETS 715 /* C(13, 4): multisets of four of the ten ranks */

#define IS_SPACE(ch) ((ch) == ' ' || (ch) == '\t' || (ch) == '\n' || (ch) == '\r')

/* One hand: 1 and its multiset_index in *multiset, with its cards added to *seen; 0 when the
 * text is not four compact cards or repeats a card already in *seen. */
static int
parse_hand(PyObject *text, uint64_t *seen, unsigned *multiset)
{
    if (!PyUnicode_CheckExact(text)) {
        return 0;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0) {
        PyErr_Clear(); /* only fails on memory; Python will try again and say so */
        return 0;
    }
#endif
    if (!PyUnicode_IS_ASCII(text)) {
        return 0;
    }
    const unsigned char *s = PyUnicode_1BYTE_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    Py_ssize_t i = 0;
    int cards = 0;
    unsigned position[4]; /* of each card's rank in RANKS */
    for (;;) {
        while (i < n && IS_SPACE(s[i])) {
            i++;
        }
        if (i == n) {
            break;
        }
        Py_ssize_t start = i;
        while (i < n && !IS_SPACE(s[i])) {
            i++;
        }
        if (cards == 4) {
            return 0; /* a fifth token */
        }
        unsigned rank, suit;
        if (i - start == 2) {
            rank = RANK_OF[s[start]];
            suit = SUIT_OF[s[start + 1]];
        }
        else if (i - start == 3 && s[start] == '1' && s[start + 1] >= '0' &&
                 s[start + 1] <= '2') {
            rank = 8 + (unsigned)(s[start + 1] - '0'); /* 10 sota, 11 caballo, 12 rey */
            suit = SUIT_OF[s[start + 2]];
        }
        else if (i - start == 3 && ((s[start] == 'a' && s[start + 1] == 's') ||
                                    (s[start] == 'A' && s[start + 1] == 'S'))) {
            rank = 1; /* "as" or "AS", not "As": _FAST has a word in one case only */
            suit = SUIT_OF[s[start + 2]];
        }
        else {
            return 0;
        }
        if (rank == 0 || suit == 0) {
            return 0;
        }
        uint64_t bit = (uint64_t)1 << ((suit - 1) * 10 + (rank - 1));
        if (*seen & bit) {
            return 0; /* dealt twice */
        }
        *seen |= bit;
        position[cards++] = rank - 1;
    }
    if (cards != 4) {
        return 0;
    }
    for (int i = 1; i < 4; i++) { /* sort the four positions */
        unsigned p = position[i];
        int j = i - 1;
        for (; j >= 0 && position[j] > p; j--) {
            position[j + 1] = position[j];
        }
        position[j + 1] = p;
    }
    *multiset = CHOOSE[position[0]][1] + CHOOSE[position[1] + 1][2] +
                CHOOSE[position[2] + 2][3] + CHOOSE[position[3] + 3][4];
    return 1;
}

PyDoc_STRVAR(hand_values_doc,
"hand_values(hands, values, /)\n"
"--\n"
"\n"
"The four entries of values for four hands in the compact form, or None.\n"
"\n"
"hands: a list or tuple of four str, each four cards like 'Ro Rc 7e 1b'; values: the tuple\n"
"scoring.cards.multiset_values(kings, real_31), by multiset_index. None whenever the input is\n"
"not that plain case (a long name, a comma, a bad or repeated card, not such a tuple): the\n"
"caller then takes the Python path, which explains what is wrong.");

static PyObject *
hand_values(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "hand_values() takes exactly 2 arguments (%zd given)",
                     nargs);
        return NULL;
    }
    PyObject *hands = args[0], *values = args[1];
    PyObject **items;
    if (PyList_CheckExact(hands)) {
        if (PyList_GET_SIZE(hands) != 4) {
            Py_RETURN_NONE;
        }
        items = ((PyListObject *)hands)->ob_item;
    }
    else if (PyTuple_CheckExact(hands)) {
        if (PyTuple_GET_SIZE(hands) != 4) {
            Py_RETURN_NONE;
        }
        items = ((PyTupleObject *)hands)->ob_item;
    }
    else {
        Py_RETURN_NONE;
    }
    if (!PyTuple_CheckExact(values) || PyTuple_GET_SIZE(values) != MULTISETS) {
        Py_RETURN_NONE;
    }

    /* Parse all four first: no Python code runs here, so the list cannot change under us. */
    uint64_t seen = 0;
    unsigned multiset[4];
    for (int h = 0; h < 4; h++) {
        if (!parse_hand(items[h], &seen, &multiset[h])) {
            Py_RETURN_NONE;
        }
    }

    PyObject *result = PyTuple_New(4);
    if (result == NULL) {
        return NULL;
    }
    for (int h = 0; h < 4; h++) {
        PyObject *value = PyTuple_GET_ITEM(values, multiset[h]);
        Py_INCREF(value);
        PyTuple_SET_ITEM(result, h, value); /* steals */
    }
    return result;
}

/* HandValue.packed, as scoring/cards.py lays it out (PACKED_SHIFTS): from the lowest bit, the
 * grande, chica, pares, juego and punto keys (higher wins), then pares and juego_bonus. */
static const unsigned KEY_SHIFT[5] = {0, 14, 28, 40, 44};
static const uint64_t KEY_MASK[5] = {0x3fff, 0x3fff, 0xfff, 0xf, 0x3f};
#define PARES_SHIFT 50
#define JUEGO_BONUS_SHIFT 52
#define PACKED_BITS 54

PyDoc_STRVAR(situations_doc,
"situations(packed0, packed1, packed2, packed3, common, /)\n"
"--\n"
"\n"
"What scoring.hand.score._situations_py returns, or None.\n"
"\n"
"The four hands in seat order from mano, as their HandValue.packed, and bits that are the same\n"
"for every lance (from bit 12 up). Returns one int per lance (grande, chica, pares, juego or\n"
"punto): bits 0-1 the lance, bits 2-3 the seat with the best cards in it (the seat nearer\n"
"mano on a tie), bits 4-11 what each seat holds in it (pares, or juego bonus; 2 bits a seat;\n"
"0 in grande and chica), and common. None when an argument is not such an int: the caller\n"
"then uses the Python path.");

static PyObject *
situations(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError, "situations() takes exactly 5 arguments (%zd given)",
                     nargs);
        return NULL;
    }
    long common = PyLong_CheckExact(args[4]) ? PyLong_AsLong(args[4]) : -1;
    if (common < 0 || (common & 0xfff) != 0) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    uint64_t packed[4];
    for (int seat = 0; seat < 4; seat++) {
        int overflow = 0;
        long long number = PyLong_CheckExact(args[seat])
                               ? PyLong_AsLongLongAndOverflow(args[seat], &overflow)
                               : -1;
        if (number < 0 || overflow || (number >> PACKED_BITS) != 0) {
            PyErr_Clear(); /* not the int the engine makes: let Python look at it */
            Py_RETURN_NONE;
        }
        packed[seat] = (uint64_t)number;
    }
    unsigned best[5];
    for (int key = 0; key < 5; key++) {
        best[key] = 0;
        uint64_t best_value = (packed[0] >> KEY_SHIFT[key]) & KEY_MASK[key];
        for (unsigned seat = 1; seat < 4; seat++) {
            uint64_t v = (packed[seat] >> KEY_SHIFT[key]) & KEY_MASK[key];
            if (v > best_value) { /* strictly better: on a tie the seat nearer mano keeps it */
                best[key] = seat;
                best_value = v;
            }
        }
    }
    long pares = 0, juego = 0;
    for (int seat = 0; seat < 4; seat++) {
        pares |= (long)((packed[seat] >> PARES_SHIFT) & 3) << (2 * seat);
        juego |= (long)((packed[seat] >> JUEGO_BONUS_SHIFT) & 3) << (2 * seat);
    }
    long found[4] = {
        (long)(best[0] << 2) | common,
        (long)(1 | best[1] << 2) | common,
        (long)(2 | best[2] << 2) | pares << 4 | common,
        (long)(3 | (juego ? best[3] : best[4]) << 2) | juego << 4 | common,
    };
    PyObject *result = PyTuple_New(4);
    if (result == NULL) {
        return NULL;
    }
    for (int lance = 0; lance < 4; lance++) {
        PyObject *number = PyLong_FromLong(found[lance]);
        if (number == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, lance, number); /* steals */
    }
    return result;
}

/* Separators in a bets key: after a lance's name and after each action (US), after a lance
 * (RS). A string that holds either cannot be keyed (None). */
#define US 0x1f
#define RS 0x1e

/* Whether a ready str holds US or RS. */
static int
has_separator(PyObject *text)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    if (kind == PyUnicode_1BYTE_KIND) {
        const unsigned char *s = data;
        for (Py_ssize_t i = 0; i < n; i++) {
            if (s[i] == US || s[i] == RS) {
                return 1;
            }
        }
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (ch == US || ch == RS) {
            return 1;
        }
    }
    return 0;
}

PyDoc_STRVAR(bets_key_doc,
"bets_key(bets, /)\n"
"--\n"
"\n"
"One str that names a betting given as JSON, or None.\n"
"\n"
"bets: a dict from lance name to a list of actions, all str. The key is the names and\n"
"actions in order, joined by two control characters; two bettings get the same key exactly\n"
"when they are equal dicts of lists of str in the same order. None for anything else (a\n"
"lance given as one str, a non-str action, a string that holds a separator): the caller\n"
"then keys it the Python way. scoring/jsonio.py uses it to look the parsed betting up.");

static PyObject *
bets_key(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "bets_key() takes exactly 1 argument (%zd given)", nargs);
        return NULL;
    }
    PyObject *bets = args[0];
    if (!PyDict_CheckExact(bets)) {
        Py_RETURN_NONE;
    }
    /* First pass: check every item and measure; no Python code runs until the copy is done,
     * so the dict and its lists cannot change in between. */
    Py_ssize_t length = 0, pos = 0;
    Py_UCS4 maxchar = 127;
    PyObject *name, *actions;
    while (PyDict_Next(bets, &pos, &name, &actions)) {
        if (!PyUnicode_CheckExact(name) || !PyList_CheckExact(actions)) {
            Py_RETURN_NONE;
        }
        Py_ssize_t n = PyList_GET_SIZE(actions);
        for (Py_ssize_t i = -1; i < n; i++) {
            PyObject *text = i < 0 ? name : PyList_GET_ITEM(actions, i);
            if (!PyUnicode_CheckExact(text)) {
                Py_RETURN_NONE;
            }
#if PY_VERSION_HEX < 0x030C0000
            if (PyUnicode_READY(text) < 0) {
                PyErr_Clear();
                Py_RETURN_NONE;
            }
#endif
            if (has_separator(text)) {
                Py_RETURN_NONE;
            }
            Py_UCS4 m = PyUnicode_MAX_CHAR_VALUE(text);
            if (m > maxchar) {
                maxchar = m;
            }
            length += PyUnicode_GET_LENGTH(text) + 1;
        }
        length += 1;
    }
    PyObject *key = PyUnicode_New(length, maxchar);
    if (key == NULL) {
        return NULL;
    }
    Py_ssize_t at = 0;
    pos = 0;
    while (PyDict_Next(bets, &pos, &name, &actions)) {
        Py_ssize_t n = PyList_GET_SIZE(actions);
        for (Py_ssize_t i = -1; i < n; i++) {
            PyObject *text = i < 0 ? name : PyList_GET_ITEM(actions, i);
            Py_ssize_t len = PyUnicode_GET_LENGTH(text);
            if (maxchar < 256) { /* every part is one byte a character: copy the bytes */
                memcpy(PyUnicode_1BYTE_DATA(key) + at, PyUnicode_1BYTE_DATA(text), (size_t)len);
            }
            else if (PyUnicode_CopyCharacters(key, at, text, 0, len) < 0) {
                Py_DECREF(key);
                return NULL;
            }
            at += len;
            PyUnicode_WRITE(PyUnicode_KIND(key), PyUnicode_DATA(key), at++, US);
        }
        PyUnicode_WRITE(PyUnicode_KIND(key), PyUnicode_DATA(key), at++, RS);
    }
    return key;
}

static PyMethodDef cards_methods[] = {
    {"hand_values", (PyCFunction)(void (*)(void))hand_values, METH_FASTCALL, hand_values_doc},
    {"situations", (PyCFunction)(void (*)(void))situations, METH_FASTCALL, situations_doc},
    {"bets_key", (PyCFunction)(void (*)(void))bets_key, METH_FASTCALL, bets_key_doc},
    {NULL, NULL, 0, NULL},
};

static PyModuleDef_Slot cards_slots[] = {
    {0, NULL},
};

PyDoc_STRVAR(module_doc,
"Optional C speed-up of the engine's two innermost loops.\n"
"\n"
"hand_values(hands, values) parses four hands in the compact card form (Ro Rc 7e 1b) and\n"
"returns their values (scoring.cards.multiset_values) or None; situations()\n"
"says who has the best cards in each lance (scoring.hand.score._situations_py); bets_key()\n"
"names a betting for scoring.jsonio's memo. On None the\n"
"pure-Python path does the work and explains any error. scoring/cards.py and scoring/hand/\n"
"hold the rules; the engine works the same without this module.");

static struct PyModuleDef cards_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "scoring._cards",
    .m_doc = module_doc,
    .m_size = 0,
    .m_methods = cards_methods,
    .m_slots = cards_slots,
};

PyMODINIT_FUNC
PyInit__cards(void)
{
    return PyModuleDef_Init(&cards_module);
}
