// glibc's allocator settings (mallopt and its M_* parameters), which the Glibc module does not import;
// reached only through ToolSupport's AllocatorTuning.
#ifndef BRAINBATCH_CMALLOC_SHIM_H
#define BRAINBATCH_CMALLOC_SHIM_H
#if defined(__linux__)
#include <malloc.h>
#endif
#endif
