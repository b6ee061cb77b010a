import DashModel
import RetentionMessaging
/// What a population member who goes to cancel does on the cancel page, drawn from the member's
/// own seed (a stream apart from its renewals and mix events), so the same seed gives the same
/// choices whatever order the members run in. The shares are the mix's `retentionAccept` and
/// `retentionKeep` (SubDash's defaults, not Apple figures: Apple publishes no acceptance rates).
///
/// - An alternate product or a promotional offer: accept with `retentionAccept`, keep with
///   `retentionKeep`, else cancel.
/// - A message with nothing to take: keep with `retentionKeep`, else cancel.
/// - No message (Apple's plain cancel page): cancel, as the member set out to.
enum RetentionDraw {
  static func choice(seed: UInt64, offer: RetentionOffer?, mix: PopulationMix) -> RetentionChoice {
    guard let offer else { return .cancel }
    var rng = SplitMix(seed: seed ^ 0x7265_7465_6E74_696F)
    let u = rng.unit()
    switch offer.kind {
    case .alternateProduct, .promotionalOffer:
      if u < mix.retentionAccept { return .accept }
      return u < mix.retentionAccept + mix.retentionKeep ? .keep : .cancel
    case .message:
      return u < mix.retentionKeep ? .keep : .cancel
    }
  }
}
