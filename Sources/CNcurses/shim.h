// Shim for ncursesw. NCURSES_WIDECHAR must precede curses.h or the wide API (get_wch, cchar_t) is hidden.
#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <langinfo.h>
#include <wchar.h>
#ifdef __linux__
#include <sys/signalfd.h>   // Glibc module lacks signalfd; Linux only (Platform/SignalWatcher.swift)
#endif
#include <sys/ioctl.h>      // ioctl is variadic, so Swift cannot call it directly
#include <ncursesw/curses.h>

// Globals are read through functions: Swift 6 rejects direct references to C mutable globals.
static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline int cn_lines(void) { return LINES; }
static inline int cn_cols(void) { return COLS; }
static inline FILE *cn_stdin(void) { return stdin; }
static inline FILE *cn_stdout(void) { return stdout; }
static inline int cn_colors(void) { return COLORS; }
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }

// Attribute macros Swift cannot import.
static inline attr_t cn_a_normal(void) { return A_NORMAL; }
static inline attr_t cn_a_bold(void) { return A_BOLD; }
static inline attr_t cn_a_reverse(void) { return A_REVERSE; }
static inline attr_t cn_a_underline(void) { return A_UNDERLINE; }
static inline attr_t cn_a_dim(void) { return A_DIM; }
static inline attr_t cn_color_pair(short n) { return COLOR_PAIR(n); }
static inline int cn_attr_set(WINDOW *w, attr_t a, short pair) { return wattr_set(w, a, pair, NULL); }
static inline int cn_codeset_is_utf8(void) {
  const char *cs = nl_langinfo(CODESET);
  return cs && (cs[0] == 'U' || cs[0] == 'u') && (cs[1] == 'T' || cs[1] == 't') && (cs[2] == 'F' || cs[2] == 'f');
}

// Terminal size from the kernel. ioctl(2) is variadic and does not import into Swift.
static inline int cn_winsize(int fd, int *rows, int *cols) {
  struct winsize ws;
  if (ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 || ws.ws_col == 0) return -1;
  *rows = ws.ws_row;
  *cols = ws.ws_col;
  return 0;
}

// KEY_F(n) is a function-like macro.
static inline int cn_key_f(int n) { return KEY_F(n); }

#endif
