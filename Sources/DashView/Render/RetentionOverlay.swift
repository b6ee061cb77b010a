import DashModel

/// The cancel page as the customer sees it with a retention message: the developer's header,
/// body and bullet points, what the message offers (a plan to switch to, a promotional offer) with
/// the model's preview of taking it, where the message came from, and the three choices. Every
/// text is the developer's (or their server's), so it is cleaned of control characters.
enum RetentionOverlay {
  static func lines(_ sheet: RetentionSheet, _ vm: ViewModel, width: Int, glyphs g: Glyphs) -> [Line] {
    let offer = sheet.offer
    var out = Line(Sanitizer.clean(offer.header), Style(.value, bold: true)).wrapped(width: width, maxLines: 2, indent: 0)
    out += Line(Sanitizer.clean(offer.body), Style(.plain)).wrapped(width: width, maxLines: 4, indent: 0)
    for bullet in offer.bulletPoints {
      out += Line("\(g.dot) " + Sanitizer.clean(bullet), Style(.plain)).wrapped(width: width, maxLines: 2, indent: 2)
    }
    if let accept = sheet.accept {
      out.append(.empty)
      let name: String
      switch offer.kind {
      case .alternateProduct(let p): name = "Switch to " + productName(p, vm)
      case .promotionalOffer(let p, let o): name = "Promotional offer \(Sanitizer.clean(o)) on " + productName(p, vm)
      case .message: name = ""
      }
      out += Line(name, Style(.accent, bold: true)).wrapped(width: width, maxLines: 2, indent: 2)
      switch vm.advisor.preview(accept) {
      case .success(let preview): out += Line(preview.summary, Style(.plain)).wrapped(width: width, maxLines: 4, indent: 2)
      case .failure(let error): out += Line("not possible now: " + error.message, Style(.dim)).wrapped(width: width, maxLines: 3, indent: 2)
      }
    }
    out.append(.empty)
    out += Line(Sanitizer.clean(sheet.outcome.origin.prefix(1).uppercased() + sheet.outcome.origin.dropFirst()), Style(.dim))
      .wrapped(width: width, maxLines: 3, indent: 2)
    return out
  }

  static func draw(_ sheet: RetentionSheet, _ vm: ViewModel, into c: inout Canvas) {
    let width = min(c.frame.width - 2, 72)
    let text = lines(sheet, vm, width: width - 4, glyphs: c.glyphs)
    let h = min(c.frame.height - 2, text.count + 4)
    let r = Rect(x: (c.frame.width - width) / 2, y: max(1, (c.frame.height - h) / 2), width: width, height: h)
    c.box(r, title: "Cancel subscription")
    for (i, line) in text.prefix(max(0, r.height - 4)).enumerated() { c.draw(line, x: r.x + 2, y: r.y + 1 + i, width: r.width - 4) }
    var prompt = [Run("k", Style(.keyHint, bold: true)), Run(" keep   ")]
    if sheet.accept != nil {
      let verb: String
      if case .promotionalOffer = sheet.offer.kind { verb = " take offer   " } else { verb = " switch   " }
      prompt += [Run("a", Style(.keyHint, bold: true)), Run(verb)]
    }
    prompt += [Run("c", Style(.keyHint, bold: true)), Run(" cancel subscription")]
    c.draw(Line(prompt), x: r.x + 2, y: r.maxY - 2, width: r.width - 4)
  }

  private static func productName(_ id: String, _ vm: ViewModel) -> String {
    let clean = Sanitizer.clean(id)
    guard let p = vm.state.catalog.product(id) else { return clean }
    return "\(Sanitizer.clean(p.displayName)) (\(clean))"
  }
}
