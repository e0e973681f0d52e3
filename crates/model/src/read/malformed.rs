//! Malformed or unsupported input of every format (test data only): the readers' tests check
//! each sample's error, and the puzzle layer's tests read the same samples as files (its
//! `parse/tests.rs` includes this file by path, since a crate's test items are not visible to
//! the crates above it).

use crate::read::{cnf, lp, mps, opb, xcc, Format};

/// Malformed or unsupported input of every format, with where the error must point and a
/// word its message must hold. Shared with the parser fuzz test and the puzzle layer's tests.
pub(crate) const MALFORMED: &[(Format, &str, (usize, usize), &str)] = &[
    (opb::FORMAT, "+1 x1 x2 >= 1 ;\n", (1, 7), "product"),
    (opb::FORMAT, "+1 x1 >= 1.5 ;\n", (1, 10), "integer"),
    (opb::FORMAT, "+1 x1 >= 1\n", (1, 1), "';'"),
    (
        opb::FORMAT,
        "* #variable= 2\n+1 x3 >= 1 ;\n",
        (2, 4),
        "x1..x2",
    ),
    (
        opb::FORMAT,
        "+99999999999999999999 x1 >= 1 ;\n",
        (1, 1),
        "2^53",
    ),
    (opb::FORMAT, "x1 >= 1 ;\n", (1, 1), "coefficient"),
    (cnf::FORMAT, "1 2 0\n", (1, 1), "p cnf"),
    (
        cnf::FORMAT,
        "p cnf 2 1\n1 3 0\n",
        (2, 3),
        "between -2 and 2",
    ),
    (cnf::FORMAT, "p cnf 2 2\n1 2 0\n", (2, 0), "2 clauses"),
    (cnf::FORMAT, "p wcnf 2 1\n", (1, 3), "wcnf"),
    (cnf::FORMAT, "p cnf 2 1\n1 x 0\n", (2, 3), "literal"),
    (cnf::FORMAT, "p cnf 2 1\n1 2\n", (2, 1), "end with 0"),
    (
        lp::FORMAT,
        "Minimize\n obj: x\nSubject To\n c: x + y >= 1\nBinary\n x\nEnd\n",
        (4, 9),
        "continuous",
    ),
    (
        lp::FORMAT,
        "Minimize\n obj: x\nSubject To\n c: 1.5 x >= 1\nBinary\n x\nEnd\n",
        (4, 5),
        "integer",
    ),
    (
        lp::FORMAT,
        "Minimize\n obj: [ x * x ]\nSubject To\n c: x >= 1\nBinary\n x\nEnd\n",
        (2, 7),
        "quadratic",
    ),
    (
        lp::FORMAT,
        "Minimize\n obj: x\nSubject To\n c: x >= 1\nBounds\n x <= 3\nGeneral\n x\nEnd\n",
        (6, 4),
        "0-1",
    ),
    (
        lp::FORMAT,
        "Minimize\n obj: x\nSubject To\n c: x >= 1\nGeneral\n x\nEnd\n",
        (2, 7),
        "general-integer",
    ),
    (
        lp::FORMAT,
        "Minimize\n obj: x + 3\nSubject To\n c: x >= 1\nBinary\n x\nEnd\n",
        (2, 11),
        "constant",
    ),
    (
        lp::FORMAT,
        "Minimize\n obj: x\nSubject To\n c: x >= 1\nBounds\n x free\nBinary\n x\nEnd\n",
        (6, 4),
        "free",
    ),
    (
        mps::FORMAT,
        "NAME t\nROWS\n N obj\n L c\nCOLUMNS\n x c 1\nRHS\n rhs c 1\nENDATA\n",
        (6, 2),
        "continuous",
    ),
    (
        mps::FORMAT,
        "NAME t\nROWS\n N obj\n L c\nCOLUMNS\n x c 1\nRHS\n rhs c 1\nBOUNDS\n UP bnd x 4\nENDATA\n",
        (10, 2),
        "UP 4",
    ),
    (
        mps::FORMAT,
        "NAME t\nROWS\n N obj\n L c\nCOLUMNS\n x c 0.5\nENDATA\n",
        (6, 6),
        "integer",
    ),
    (
        mps::FORMAT,
        "NAME t\nROWS\n N obj\n L c\nCOLUMNS\n x d 1\nENDATA\n",
        (6, 4),
        "ROWS",
    ),
    (
        mps::FORMAT,
        "NAME t\nROWS\n N obj\n L c\nCOLUMNS\n x c 1\nRANGES\n r c 2\nENDATA\n",
        (8, 2),
        "RANGES",
    ),
    (mps::FORMAT, "NAME t\nQUADOBJ\nENDATA\n", (2, 1), "QUADOBJ"),
    (mps::FORMAT, "NAME t\nROWS\n N obj\n", (3, 0), "ENDATA"),
    (xcc::FORMAT, "a b\na c\n", (2, 3), "item named"),
    (xcc::FORMAT, "a | x\na:red\n", (2, 1), "primary"),
    (xcc::FORMAT, "a a\n", (1, 3), "once"),
    (xcc::FORMAT, "3:1|a\na\n", (1, 1), "u <= v"),
    (xcc::FORMAT, "a\na a\n", (2, 3), "at most once"),
];
