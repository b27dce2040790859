"""Device formats of raw dumps (raw-dumps.md §1.2/§1.4): the header's primary format value -> its CANN name."""

from __future__ import annotations

_NAMES = (
    "NCHW", "NHWC", "ND", "NC1HWC0", "FRACTAL_Z", "NC1C0HWPAD", "NHWC1C0", "FSR_NCHW", "FRACTAL_DECONV",
    "C1HWNC0", "FRACTAL_DECONV_TRANSPOSE", "FRACTAL_DECONV_SP_STRIDE_TRANS", "NC1HWC0_C04", "FRACTAL_Z_C04",
    "CHWN", "FRACTAL_DECONV_SP_STRIDE8_TRANS", "HWCN", "NC1KHKWHWC0", "BN_WEIGHT", "FILTER_HWCK",
    "HASHTABLE_LOOKUP_LOOKUPS", "HASHTABLE_LOOKUP_KEYS", "HASHTABLE_LOOKUP_VALUE", "HASHTABLE_LOOKUP_OUTPUT",
    "HASHTABLE_LOOKUP_HITS", "C1HWNCoC0", "MD", "NDHWC", "FRACTAL_ZZ", "FRACTAL_NZ", "NCDHW", "DHWCN",
    "NDC1HWC0", "FRACTAL_Z_3D", "CN", "NC", "DHWNC", "FRACTAL_Z_3D_TRANSPOSE", "FRACTAL_ZN_LSTM", "FRACTAL_Z_G",
    "RESERVED", "ALL", "NULL", "ND_RNN_BIAS", "FRACTAL_ZN_RNN", "YUV", "YUV_A", "NCL", "FRACTAL_Z_WINO",
    "C1HWC0",
)
# ge::Format values past the proto enum that writers may still put in the field (RT c_types.h).
_LATER = {50: "FRACTAL_NZ_C0_16", 51: "FRACTAL_NZ_C0_32", 0xFF: "RESERVED"}


def format_name(code: int) -> str:
    """The CANN name of a primary format value ('FORMAT_<n>' when unknown); only the low 8 bits count."""
    primary = code & 0xFF if code >= 0 else code
    if 0 <= primary < len(_NAMES):
        return _NAMES[primary]
    return _LATER.get(primary, f"FORMAT_{code}")
