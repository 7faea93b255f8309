// FFTW 3 (double precision), as installed by Debian's libfftw3-dev.
#include <fftw3.h>
