/* ptx_types.c — facts about PTX types. */
#include "ptx.h"

unsigned ptx_type_bytes(enum ptx_type t)
{
	switch (t) {
	case PT_PRED: return 1;
	case PT_B8: case PT_U8: case PT_S8: return 1;
	case PT_B16: case PT_U16: case PT_S16: case PT_F16: case PT_BF16: return 2;
	case PT_B32: case PT_U32: case PT_S32: case PT_F32: case PT_F16X2: case PT_BF16X2: case PT_TF32: return 4;
	case PT_B64: case PT_U64: case PT_S64: case PT_F64: return 8;
	case PT_B128: return 16;
	default: return 0;
	}
}

bool ptx_type_is_float(enum ptx_type t)
{
	return t == PT_F16 || t == PT_F16X2 || t == PT_BF16 || t == PT_BF16X2 || t == PT_TF32 || t == PT_F32 ||
	       t == PT_F64;
}

bool ptx_type_is_signed(enum ptx_type t)
{
	return t == PT_S8 || t == PT_S16 || t == PT_S32 || t == PT_S64;
}
