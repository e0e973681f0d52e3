* The model of pick.lp in MPS: optimum 5 (x and y).
NAME          pick
OBJSENSE
    MAX
ROWS
 N  value
 L  size
 G  y_needs_x
COLUMNS
    MARKER                 'MARKER'                 'INTORG'
    x         value        3   size         2
    x         y_needs_x    1
    y         value        2   size         3
    y         y_needs_x   -1
    z         value        4   size         4
    MARKER                 'MARKER'                 'INTEND'
RHS
    rhs       size         5
BOUNDS
 UP bnd       x            1
 UP bnd       y            1
 UP bnd       z            1
ENDATA
