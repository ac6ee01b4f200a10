/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The schema migrations compiled into the library (schema/NNNN-*.sql). */
#ifndef PC_STORE_SCHEMA_H
#define PC_STORE_SCHEMA_H

struct pc_migration {
	int version; /* NNNN; the file sets PRAGMA user_version to it */
	const char *name; /* file name */
	const char *sql;
};

extern const struct pc_migration pc_migrations[];
extern const unsigned pc_migrations_count;
/* schema/current.sql: the tables, indexes, views, triggers and rows of a
 * database after every migration (the last migration's version), from
 * which a new database is made in one transaction. */
extern const char pc_schema_current[];

#endif
