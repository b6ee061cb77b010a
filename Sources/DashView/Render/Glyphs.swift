/// The non-letter characters the dashboard draws, in Unicode and in plain ASCII (`--ascii`).
/// Every glyph comes with words next to it; none carries meaning alone.
struct Glyphs: Sendable {
  let warn: String, error: String, info: String
  let current: String, pending: String, pointer: String
  let dash: String, dot: String, ellipsis: String
  let horizontal: String, vertical: String
  let topLeft: String, topRight: String, bottomLeft: String, bottomRight: String
  let upDown: String, leftRight: String

  static let unicode = Glyphs(
    warn: "⚠", error: "✖", info: "◆", current: "●", pending: "◆", pointer: "›",
    dash: "—", dot: "·", ellipsis: "…", horizontal: "─", vertical: "│",
    topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘", upDown: "↑/↓", leftRight: "←/→")

  static let ascii = Glyphs(
    warn: "!", error: "x", info: "*", current: "*", pending: "+", pointer: ">",
    dash: "-", dot: "|", ellipsis: "...", horizontal: "-", vertical: "|",
    topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+", upDown: "Up/Dn", leftRight: "Lt/Rt")
}
