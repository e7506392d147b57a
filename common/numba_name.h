/* numba_name.h — the Python name inside a kernel name Numba mangled.  numba-cuda writes a kernel's
 * qualified name as an Itanium nested name, one component per dot ("__main__", "vector_add"), with
 * every character outside [A-Za-z0-9_] escaped as _XX (its UTF-8 bytes in hex) and the component
 * followed by ABI tags (B2v1 B92...); the argument types come after the closing E.  Launch tables and
 * ncu-style --kernel-name matching want "vector_add" back, which c++filt does not give
 * ("__main__::vector_add[abi:v1][abi:cw51c...](Array<float, 1, C, mutable, aligned>)"). */
#ifndef GL_NUMBA_NAME_H
#define GL_NUMBA_NAME_H

#include <stdbool.h>
#include <stddef.h>

/* True when `mangled` is such a name (a nested name whose last component carries an ABI tag); `out`
 * gets the Python name with dots, without the "__main__." of a script's own functions
 * ("vector_add", "mymod.kernels.scale", "outer.<locals>.inner").  False (and `out` untouched) otherwise. */
bool gl_numba_name(const char *mangled, char *out, size_t n);

#endif
