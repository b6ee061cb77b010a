/// A key press, independent of ncurses. The `terminal` branch owns this file (it adds the
/// scalar table and descriptions); this copy carries the identical enum so DashView builds first.
public enum Key: Hashable, Sendable { case char(Character), up, down, left, right, home, end, pageUp, pageDown, enter, escape, backspace, delete, tab, backTab, resize, ctrl(Character), function(Int), unknown(Int32) }
