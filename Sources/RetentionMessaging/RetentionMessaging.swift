// RetentionMessaging: what the App Store shows a customer who goes to cancel, as values.
//
// What it holds: the Retention Messaging configuration (the developer's default messages and
// real-time URL, set through the App Store Server API), the real-time answer and why one is
// refused, retention offers and choices, in-app purchase keys, promotional offer signatures and
// the ledger of nonces already spent.
//
// What it may import: DashModel and CoreValues. Pure, like the model: reading and writing the
// configuration and the nonce record are SubscriberStorage's (RetentionSetup+File.swift,
// OfferNonceLedger+File.swift); asking a developer's server is NotificationDelivery's.
