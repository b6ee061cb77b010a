// SubscriberImport: what a backend holds, made into a subscriber (`subdash import`).
//
// What it holds: readers for App Store Server API answers and notifications (signed or decoded),
// backend JSON and RevenueCat exports; sniffing what an input is; merging items into a state
// with their provenance; the derived catalog when no .storekit file is given. Signatures are
// checked through `SignedDataChecking`, which AppStoreSigning implements: no crypto here.
//
// What it may import: DashModel, SubscriberStorage and CoreValues. Writes go through the store's
// update, like every other change.
