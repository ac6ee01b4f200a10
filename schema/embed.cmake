# SPDX-License-Identifier: GPL-2.0-or-later
# Writes OUT, a C file holding every schema/NNNN-*.sql migration in order,
# so the binaries carry their migrations. Run with -DSCHEMA_DIR= -DOUT=.
file(GLOB migrations ${SCHEMA_DIR}/[0-9][0-9][0-9][0-9]-*.sql)
list(SORT migrations)
set(body "/* Generated from the schema/ migrations by schema/embed.cmake. */\n")
string(APPEND body "#include \"store/schema.h\"\n\n")
set(table "const struct pc_migration pc_migrations[] = {\n")
set(n 0)
foreach(f ${migrations})
	get_filename_component(name ${f} NAME)
	string(SUBSTRING ${name} 0 4 num)
	math(EXPR num "${num} + 0")
	file(READ ${f} hex HEX)
	string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
	string(APPEND body "static const char m${n}[] = {${hex}0x00};\n")
	string(APPEND table "\t{ ${num}, \"${name}\", m${n} },\n")
	math(EXPR n "${n} + 1")
endforeach()
string(APPEND table "};\nconst unsigned pc_migrations_count = ${n};\n")
# The schema a new database ends with (current.sql, with its rows): a new
# database is made from it in one step rather than by every migration.
file(READ ${SCHEMA_DIR}/current.sql hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
string(APPEND table "const char pc_schema_current[] = {${hex}0x00};\n")
file(WRITE ${OUT}.tmp "${body}\n${table}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
