# SPDX-License-Identifier: GPL-2.0-or-later
# Writes OUT, a C file holding IN (the shipped zstd dictionary,
# lib/store/kernel-mail.zdict) as pc_raw__builtin_dict. Run with -DIN=
# -DOUT=.
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" n)
math(EXPR n "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
file(WRITE ${OUT}.tmp
	"/* Generated from lib/store/kernel-mail.zdict by embed_dict.cmake. */\n"
	"#include \"store/raw.h\"\n\n"
	"const unsigned char pc_raw__builtin_dict[] = {${hex}};\n"
	"const size_t pc_raw__builtin_dict_len = ${n};\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
