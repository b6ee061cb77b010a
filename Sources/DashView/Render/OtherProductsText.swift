import DashModel
import CoreValues

/// The catalog's consumables, non-consumables and non-renewing subscriptions, where support
/// looks for the catalog's products (the plans panel, `show`, the buy dialog). They are named so
/// it is plain they exist and what they are, and said not to be plans: SubDash neither switches
/// to them nor simulates their purchase.
enum OtherProductsText {
  /// One line per kind, most common first: "consumables (not plans): Golden Acorn 0.99 USD · …".
  /// The caller's width cuts a long line; `show` (unlimited width) prints every product.
  static func lines(_ catalog: Catalog, currency: String?, glyphs g: Glyphs) -> [Line] {
    kinds(catalog).map { kind, products in
      let names = products.map { p in
        [Sanitizer.clean(p.displayName), p.priceMilli.map { Money.format($0, currency: currency) }]
          .compactMap { $0 }.joined(separator: " ")
      }
      return Line([Run("  " + plural(kind, products.count) + " (not plans): ", Style(.label)),
                   Run(names.joined(separator: " \(g.dot) "), Style(.dim))])
    }
  }

  /// The buy dialog's note under its list: what else the catalog sells, by kind and count.
  /// "Also in the catalog, not plans: 6 consumables" (or "1 consumable, 1 non-consumable, 1
  /// non-renewing subscription").
  static func buyNote(_ catalog: Catalog) -> String? {
    let counts = kinds(catalog).map { counted($0.products.count, $0.kind.label) }
    guard !counts.isEmpty else { return nil }
    return "Also in the catalog, not plans: " + counts.joined(separator: ", ")
  }

  /// Products grouped by kind in a fixed order (consumable, non-consumable, non-renewing, others
  /// by name), each list in the catalog's order.
  static func kinds(_ catalog: Catalog) -> [(kind: OtherProduct.Kind, products: [OtherProduct])] {
    var order: [OtherProduct.Kind] = [.consumable, .nonConsumable, .nonRenewingSubscription]
    for p in catalog.otherProducts where !order.contains(p.kind) { order.append(p.kind) }
    return order.compactMap { kind in
      let ps = catalog.otherProducts.filter { $0.kind == kind }
      return ps.isEmpty ? nil : (kind, ps)
    }
  }

  static func plural(_ kind: OtherProduct.Kind, _ n: Int) -> String {
    n == 1 ? kind.label : kind.label + "s"
  }
}
