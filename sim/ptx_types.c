/* ptx_types.c — facts about PTX types: size in bytes, float, signed. */
#include "ptx.h"

const uint8_t ptx_type_size_table[] = {
	[PT_NONE] = 0, [PT_PRED] = 1,
	[PT_B8] = 1, [PT_B16] = 2, [PT_B32] = 4, [PT_B64] = 8, [PT_B128] = 16,
	[PT_U8] = 1, [PT_U16] = 2, [PT_U32] = 4, [PT_U64] = 8,
	[PT_S8] = 1, [PT_S16] = 2, [PT_S32] = 4, [PT_S64] = 8,
	[PT_F16] = 2, [PT_F16X2] = 4, [PT_BF16] = 2, [PT_BF16X2] = 4, [PT_TF32] = 4, [PT_F32] = 4, [PT_F64] = 8,
};

const uint8_t ptx_type_flags_table[] = {
	[PT_S8] = 2, [PT_S16] = 2, [PT_S32] = 2, [PT_S64] = 2,
	[PT_F16] = 1, [PT_F16X2] = 1, [PT_BF16] = 1, [PT_BF16X2] = 1, [PT_TF32] = 1, [PT_F32] = 1, [PT_F64] = 1,
};
