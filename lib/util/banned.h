/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Functions that are easy to misuse, after git's banned.h. Included last by
 * every lib/ and daemon/ source file (contrib/test checks it; it cannot be
 * given with -include: the system headers declare the names it bans); a
 * use is a compile error.
 */
#ifndef PC_UTIL_BANNED_H
#define PC_UTIL_BANNED_H

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) BANNED(strncat)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef strtok_r
#define strtok_r(x, y, z) BANNED(strtok_r)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef gmtime
#define gmtime(t) BANNED(gmtime)
#undef localtime
#define localtime(t) BANNED(localtime)
#undef ctime
#define ctime(t) BANNED(ctime)
#undef ctime_r
#define ctime_r(t, buf) BANNED(ctime_r)
#undef asctime
#define asctime(t) BANNED(asctime)
#undef asctime_r
#define asctime_r(t, buf) BANNED(asctime_r)

#endif
