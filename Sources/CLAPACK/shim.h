// LAPACK through its C interface LAPACKE (Debian's liblapacke-dev: the netlib reference LAPACK and BLAS,
// single-threaded, so results do not depend on thread scheduling). Reached only through the LinearAlgebra module.
#include <lapacke.h>
#include <cblas.h>
