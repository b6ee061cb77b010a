#!/usr/bin/env python3
"""Writes Examples/*.json: one believable "Birdwatch" subscriber per lifecycle situation.

The examples are generated so every file shares one catalog and consistent ids, dates and
notification logs. Each file pins the clock with "simulation": {"now": ...}, so the state it
shows never changes. Run from the repository root: python3 scripts/make-examples.py
"""
import calendar
import datetime as dt
import json
import random
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "Examples"
BUNDLE = "com.example.birdwatch"
GROUP = "6F3A93AB"
NOW_TEXT = "2026-05-14 15:00"


def ms(text):
    """'2026-05-14 15:00[:ss]' in UTC as integer milliseconds."""
    fmt = "%Y-%m-%d %H:%M:%S" if text.count(":") == 2 else "%Y-%m-%d %H:%M"
    d = dt.datetime.strptime(text, fmt).replace(tzinfo=dt.timezone.utc)
    return int(d.timestamp() * 1000)


NOW = ms(NOW_TEXT)


def add_months(t, n):
    """Calendar months in UTC, the day clamped to the end of a shorter month."""
    d = dt.datetime.fromtimestamp(t // 1000, dt.timezone.utc)
    index = d.year * 12 + d.month - 1 + n
    year, month = divmod(index, 12)
    day = min(d.day, calendar.monthrange(year, month + 1)[1])
    return int(d.replace(year=year, month=month + 1, day=day).timestamp()) * 1000 + t % 1000


def add_days(t, n):
    return t + n * 86_400_000


# MARK: - Catalog (.storekit shape, keys sorted as Xcode writes them)

def localization(name, description):
    return [{"description": description, "displayName": name, "locale": "en_US"}]


def subscription(pid, ref, name, description, level, period, price, family, internal, intro=None,
                 promos=(), codes=(), winbacks=()):
    return {
        "adHocOffers": list(promos), "codeOffers": list(codes), "displayPrice": price,
        "familyShareable": family, "groupNumber": level, "internalID": internal,
        "introductoryOffer": intro, "localizations": localization(name, description),
        "productID": pid, "recurringSubscriptionPeriod": period, "referenceName": ref,
        "subscriptionGroupID": GROUP, "type": "RecurringSubscription", "winbackOffers": list(winbacks),
    }


def free_trial(internal):
    return {"internalID": internal, "paymentMode": "free", "subscriptionPeriod": "P2W"}


def code_offer(internal, ref, mode, period, periods, price, eligibility):
    offer = {"eligibility": eligibility, "internalID": internal, "isStackable": False,
             "numberOfPeriods": periods, "paymentMode": mode, "referenceName": ref, "subscriptionPeriod": period}
    if price is not None:
        offer["displayPrice"] = price
    return offer


WINBACK_3FOR1 = {
    "offerId": "premium_winback_3for1", "referenceName": "3 Months for 1", "offerMode": "PAY_UP_FRONT",
    "duration": "THREE_MONTHS", "periodCount": 1, "displayPrice": "11.99",
    "customerEligibilityPaidSubscriptionDurationInMonths": 2,
    "customerEligibilityTimeSinceLastSubscribedInMonths": {"minimum": 1, "maximum": 24},
    "customerEligibilityWaitBetweenOffersInMonths": 6,
    "startDate": "2026-01-01", "endDate": "2026-12-31", "priority": "HIGH", "promotionIntent": "NOT_PROMOTED",
}
WINBACK_HALF = {
    "offerId": "premium_winback_half", "referenceName": "Half Price for 3 Months", "offerMode": "PAY_AS_YOU_GO",
    "duration": "ONE_MONTH", "periodCount": 3, "displayPrice": "5.99",
    "customerEligibilityPaidSubscriptionDurationInMonths": 1,
    "customerEligibilityTimeSinceLastSubscribedInMonths": {"minimum": 1, "maximum": 12},
    "startDate": "2026-03-01", "priority": "NORMAL", "promotionIntent": "USE_AUTO_GENERATED_ASSETS",
}
WINBACK_FAMILY = {
    "offerId": "family_winback_free_month", "referenceName": "Family Free Month", "offerMode": "FREE_TRIAL",
    "duration": "ONE_MONTH", "periodCount": 1,
    "customerEligibilityPaidSubscriptionDurationInMonths": 3,
    "customerEligibilityTimeSinceLastSubscribedInMonths": {"minimum": 2, "maximum": 18},
    "startDate": "2026-01-15", "priority": "NORMAL", "promotionIntent": "NOT_PROMOTED",
}


def catalog(ask_to_buy=False):
    premium = subscription(
        "pass.premium.monthly", "Premium Monthly", "Premium", "Every feeder, every bird, every backyard", 1, "P1M",
        "11.99", True, "C3A1F0D2", intro=free_trial("7E21B9C4"),
        promos=[{"displayPrice": "8.99", "internalID": "5C1E0B7A", "numberOfPeriods": 3, "offerID": "premium_loyalty_3m",
                 "paymentMode": "payAsYouGo", "referenceName": "Loyalty 3 Months", "subscriptionPeriod": "P1M"}],
        codes=[code_offer("9D4C2E81", "Spring 2026", "payAsYouGo", "P1M", 3, "5.99", ["new", "existing", "expired"]),
               code_offer("1B7F6A30", "Welcome Back", "free", "P1M", 1, None, ["expired"])],
        winbacks=[WINBACK_3FOR1, WINBACK_HALF])
    annual = subscription(
        "pass.premium.annual", "Premium Annual", "Premium (Annual)", "A whole year of birds, two months free", 1, "P1Y",
        "119.99", True, "A90E5D17")
    family = subscription(
        "pass.family.monthly", "Family Monthly", "Family", "Share your pass with up to 6 accounts", 2, "P1M",
        "7.99", True, "D4E97EB7", intro=free_trial("60AC84AA"),
        codes=[code_offer("E2A85C19", "New Friends", "payUpFront", "P3M", 1, "14.99", ["new"])],
        winbacks=[WINBACK_FAMILY])
    duo = subscription(
        "pass.duo.monthly", "Duo Monthly", "Duo", "Two birdwatchers, one pass", 2, "P1M", "6.99", True, "F07B3C62")
    individual = subscription(
        "pass.individual.monthly", "Individual Monthly", "Individual", "Unlimited backyards and more decorations", 3,
        "P1M", "4.99", False, "BAE8E446", intro=free_trial("D2893B86"))
    return {
        "identifier": "B17D3A5C",
        "nonRenewingSubscriptions": [],
        "products": [],
        "settings": {
            "_askToBuyEnabled": ask_to_buy, "_billingGracePeriodEnabled": True, "_billingIssuesEnabled": False,
            "_disableDialogs": False, "_failTransactionsEnabled": False, "_locale": "en_US",
            "_renewalBillingIssuesEnabled": False, "_storefront": "USA", "_timeRate": 0,
        },
        "subscriptionGroups": [{
            "id": GROUP, "localizations": [], "name": "Birdwatch Pass",
            "subscriptions": [individual, family, duo, premium, annual],
        }],
        "version": {"major": 4, "minor": 0},
    }


OFFER_CODES = [
    {"type": "custom", "code": "SPRING26", "productId": "pass.premium.monthly", "offerReference": "Spring 2026",
     "redemptionLimit": 10000, "redemptionCount": 2417, "expiresDate": ms("2026-07-01 00:00")},
    {"type": "custom", "code": "COMEBACK", "productId": "pass.premium.monthly", "offerReference": "Welcome Back",
     "redemptionLimit": 2000, "redemptionCount": 88, "expiresDate": ms("2027-01-01 00:00")},
    {"type": "custom", "code": "BIRDFEST", "productId": "pass.premium.monthly", "offerReference": "Spring 2026",
     "redemptionLimit": 500, "redemptionCount": 500},
    {"type": "custom", "code": "WINTER25", "productId": "pass.premium.monthly", "offerReference": "Welcome Back",
     "redemptionLimit": 1000, "redemptionCount": 212, "expiresDate": ms("2026-03-01 00:00")},
    {"type": "oneTime", "productId": "pass.family.monthly", "offerReference": "New Friends",
     "codes": ["NF7KQ2XW9P4M", "NF3HZ8LRT6VB", "NF9WC2MDK5QA", "NF4TJ6YPB8RE"], "redeemedCodes": ["NF3HZ8LRT6VB"],
     "expiresDate": ms("2026-09-30 00:00")},
]

PRICES = {"pass.premium.monthly": 11990, "pass.premium.annual": 119990, "pass.family.monthly": 7990,
          "pass.duo.monthly": 6990, "pass.individual.monthly": 4990}
NAMES = {"pass.premium.monthly": "Premium Monthly", "pass.premium.annual": "Premium Annual",
         "pass.family.monthly": "Family Monthly", "pass.duo.monthly": "Duo Monthly",
         "pass.individual.monthly": "Individual Monthly"}


# MARK: - Subscriber pieces (App Store Server API field names)

class Subscriber:
    """Builds one subscriber's history with sequential ids in the style of its environment."""

    def __init__(self, name, environment="Sandbox", original=2000000871234560, storefront=("USA", "143441")):
        self.rng = random.Random(name)
        self.environment = environment
        self.original = str(original)
        self.next_id = original
        self.next_order = original + 98_000_000_000 if environment != "Xcode" else 0
        self.storefront = storefront
        self.transactions = []
        self.notifications = []
        self.original_purchase = None

    def _id(self):
        value = self.next_id
        self.next_id += 1 if self.environment == "Xcode" else self.rng.randint(3, 9000)
        return str(value)

    def transaction(self, product, purchase, expires, reason, price=None, offer=None, ownership="PURCHASED", **more):
        if self.original_purchase is None:
            self.original_purchase = purchase
        t = {
            "originalTransactionId": self.original, "transactionId": self._id(),
            "webOrderLineItemId": str(self.next_order), "bundleId": BUNDLE, "productId": product,
            "subscriptionGroupIdentifier": GROUP, "purchaseDate": purchase,
            "originalPurchaseDate": self.original_purchase, "expiresDate": expires, "quantity": 1,
            "type": "Auto-Renewable Subscription", "inAppOwnershipType": ownership,
            "signedDate": purchase + 1_812, "environment": self.environment, "transactionReason": reason,
            "storefront": self.storefront[0], "storefrontId": self.storefront[1],
        }
        self.next_order += 1
        if offer:
            t.update(offer)
        if price is None:
            price = PRICES[product]
        if ownership == "PURCHASED":
            t["price"] = 0 if offer and offer.get("offerDiscountType") == "FREE_TRIAL" else price
            t["currency"] = "USD"
        t.update(more)
        if not self.transactions:
            t["transactionId"] = self.original
        self.transactions.append(t)
        return t

    def monthly(self, product, start, count, first_reason="PURCHASE", first_offer=None, first_price=None):
        """`count` consecutive monthly periods from `start`, each anchored on the first day."""
        for k in range(count):
            begin, end = add_months(start, k), add_months(start, k + 1)
            self.transaction(product, begin, end, first_reason if k == 0 else "RENEWAL",
                             price=first_price if k == 0 else None, offer=first_offer if k == 0 else None)
            if k > 0:  # every renewal is announced, as the App Store does: no gaps in the log
                renewed(self, product, begin)
        return add_months(start, count)

    def notify(self, when, kind, subtype, status, product, summary):
        bits = self.rng.getrandbits(128)
        bits = (bits & ~(0xF << 76)) | (0x4 << 76)
        bits = (bits & ~(0x3 << 62)) | (0x2 << 62)
        h = f"{bits:032x}"
        record = {"notificationType": kind}
        if subtype:
            record["subtype"] = subtype
        record.update({
            "notificationUUID": f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}",
            "signedDate": when, "status": status, "productId": product, "summary": summary,
        })
        self.notifications.append(record)

    def renewal_info(self, product, auto_renew=1, auto_renew_product=None, **more):
        latest = self.transactions[-1]
        info = {
            "originalTransactionId": self.original, "autoRenewProductId": auto_renew_product or product,
            "productId": product, "autoRenewStatus": auto_renew,
        }
        info.update(more)
        info.setdefault("renewalDate", latest["expiresDate"])
        info.setdefault("renewalPrice", PRICES[info["autoRenewProductId"]] if info["autoRenewProductId"] in PRICES else None)
        if info["renewalPrice"] is None:
            del info["renewalPrice"]
        info["currency"] = "USD"
        info["recentSubscriptionStartDate"] = self.original_purchase
        info["signedDate"] = NOW - 95_000
        info["environment"] = self.environment
        return info

    def body(self, renewal=None, **more):
        sub = {"latestTransaction": self.transactions[-1]}
        if renewal is not None:
            sub["renewalInfo"] = renewal
        sub["transactions"] = self.transactions
        # In date order, as the App Store sends them and SubDash appends them.
        sub["notifications"] = sorted(self.notifications, key=lambda n: n["signedDate"])
        sub.update(more)
        return sub


def document(subscriber, catalog_value=None, catalog_file=None, **top):
    doc = {"format": "subdash-state/1", "simulation": {"now": NOW}, "subscriber": subscriber}
    doc.update(top)
    doc.setdefault("offerCodes", OFFER_CODES)
    if catalog_file:
        doc["catalogFile"] = catalog_file
    else:
        doc["catalog"] = catalog_value or catalog()
    return doc


def renewed(s, product, when, status=1):
    s.notify(when + 2_400, "DID_RENEW", None, status, product, f"renewed {NAMES[product]} for {PRICES[product] / 1000:.2f} USD")


INTRO = {"offerType": 1, "offerDiscountType": "FREE_TRIAL", "offerPeriod": "P2W"}


# MARK: - The examples

def active():
    """The demo: a family plan that renews next week."""
    s = Subscriber("active", original=2000000871234560)
    p = "pass.family.monthly"
    start = ms("2026-01-09 18:32:14")
    s.transaction(p, start, add_days(start, 14), "PURCHASE", offer=INTRO,
                  appAccountToken="7d1f3c52-9a4e-4b8e-a0c1-2f6d9b3e5a17")
    s.notify(start + 2_100, "SUBSCRIBED", "INITIAL_BUY", 1, p, "subscribed to Family Monthly with a 2-week free trial")
    anchor = add_days(start, 14)
    for k in range(4):
        begin = add_months(anchor, k)
        s.transaction(p, begin, add_months(anchor, k + 1), "RENEWAL", appAccountToken="7d1f3c52-9a4e-4b8e-a0c1-2f6d9b3e5a17")
        renewed(s, p, begin)
    return document(s.body(s.renewal_info(p)))


def auto_renew_off():
    s = Subscriber("auto-renew-off", original=2000000754102288)
    p = "pass.premium.monthly"
    s.monthly(p, ms("2025-11-02 09:15:00"), 7)
    s.notify(ms("2025-11-02 09:15:03"), "SUBSCRIBED", "INITIAL_BUY", 1, p, "subscribed to Premium Monthly")
    s.notify(ms("2026-05-10 12:41:09"), "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", 1, p,
             "turned off auto-renew: Premium Monthly ends 2026-06-02")
    return document(s.body(s.renewal_info(p, auto_renew=0)))


def pending_downgrade():
    s = Subscriber("pending-downgrade", original=2000000812776401)
    p, to = "pass.premium.monthly", "pass.individual.monthly"
    s.monthly(p, ms("2026-02-17 20:05:44"), 3)
    s.notify(ms("2026-02-17 20:05:47"), "SUBSCRIBED", "INITIAL_BUY", 1, p, "subscribed to Premium Monthly")
    s.notify(ms("2026-05-12 08:03:51"), "DID_CHANGE_RENEWAL_PREF", "DOWNGRADE", 1, p,
             "downgrade to Individual Monthly at the next renewal (2026-05-17)")
    return document(s.body(s.renewal_info(p, auto_renew_product=to)))


def pending_crossgrade():
    s = Subscriber("pending-crossgrade", original=2000000733590127)
    p, to = "pass.premium.monthly", "pass.premium.annual"
    s.monthly(p, ms("2025-09-28 07:45:10"), 8)
    s.notify(ms("2025-09-28 07:45:13"), "SUBSCRIBED", "INITIAL_BUY", 1, p, "subscribed to Premium Monthly")
    s.notify(ms("2026-05-13 21:17:02"), "DID_CHANGE_RENEWAL_PREF", "DOWNGRADE", 1, p,
             "crossgrade to Premium Annual at the next renewal (different duration)")
    return document(s.body(s.renewal_info(p, auto_renew_product=to)))


def price_increase():
    s = Subscriber("price-increase", original=2000000690044512)
    p = "pass.premium.monthly"
    s.monthly(p, ms("2025-06-30 11:20:00"), 11)
    s.notify(ms("2025-06-30 11:20:02"), "SUBSCRIBED", "INITIAL_BUY", 1, p, "subscribed to Premium Monthly")
    s.notify(ms("2026-04-30 11:20:00"), "PRICE_INCREASE", "PENDING", 1, p,
             "price increase to 17.99 USD needs consent before the 2026-05-30 renewal")
    return document(s.body(s.renewal_info(p, priceIncreaseStatus=0, renewalPrice=17990)))


def grace_period():
    s = Subscriber("grace-period", original=2000000820915733)
    p = "pass.family.monthly"
    end = s.monthly(p, ms("2026-02-10 06:00:00"), 3)
    s.notify(ms("2026-02-10 06:00:02"), "SUBSCRIBED", "INITIAL_BUY", 1, p, "subscribed to Family Monthly")
    s.notify(end + 3_100, "DID_FAIL_TO_RENEW", "GRACE_PERIOD", 4, p,
             "renewal failed (billing); grace period until 2026-05-26 06:00")
    info = s.renewal_info(p, isInBillingRetryPeriod=True, gracePeriodExpiresDate=add_days(end, 16))
    return document(s.body(info))


def billing_retry():
    s = Subscriber("billing-retry", original=2000000777260918)
    p = "pass.premium.monthly"
    end = s.monthly(p, ms("2025-12-25 16:30:00"), 4)
    s.notify(ms("2025-12-25 16:30:02"), "SUBSCRIBED", "INITIAL_BUY", 1, p, "subscribed to Premium Monthly")
    s.notify(end + 2_900, "DID_FAIL_TO_RENEW", "GRACE_PERIOD", 4, p,
             "renewal failed (billing); grace period until 2026-05-11 16:30")
    s.notify(add_days(end, 16) + 1_000, "GRACE_PERIOD_EXPIRED", None, 3, p,
             "grace period ended; Apple keeps retrying until 2026-06-24")
    info = s.renewal_info(p, isInBillingRetryPeriod=True, gracePeriodExpiresDate=add_days(end, 16))
    return document(s.body(info), policy={"billingRetryAccess": "none"})


def expired_voluntary():
    s = Subscriber("expired-voluntary", original=2000000651178844)
    p = "pass.premium.monthly"
    end = s.monthly(p, ms("2025-06-08 13:00:00"), 9)
    s.notify(ms("2025-06-08 13:00:02"), "SUBSCRIBED", "INITIAL_BUY", 1, p, "subscribed to Premium Monthly")
    s.notify(ms("2026-02-20 19:02:45"), "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", 1, p,
             "turned off auto-renew")
    s.notify(end + 1_200, "EXPIRED", "VOLUNTARY", 2, p, "expired: auto-renew was off")
    # Apple lists offers of the customer's most recent subscription only (Premium Monthly).
    info = s.renewal_info(p, auto_renew=0, expirationIntent=1, eligibleWinBackOfferIds=[
        "premium_winback_3for1", "premium_winback_half"])
    del info["renewalPrice"]
    return document(s.body(info))


def server_api_latest_only():
    """expired-voluntary as the App Store Server API returns it (Get All Subscription Statuses):
    the latest transaction and the renewal info, no history. SubDash cannot count paid time or
    earlier redemptions, so it shows Apple's eligibleWinBackOfferIds, in Apple's order, plus an
    offer ID that no catalog configures (shown by ID)."""
    doc = expired_voluntary()
    sub = doc["subscriber"]
    del sub["transactions"], sub["notifications"]
    sub["renewalInfo"]["eligibleWinBackOfferIds"] = ["premium_winback_half", "premium_winback_3for1", "premium_winback_spring"]
    return doc


def expired_billing():
    s = Subscriber("expired-billing", original=2000000839025516)
    p = "pass.individual.monthly"
    start = ms("2026-01-26 08:10:00")
    end = add_days(start, 14)
    s.transaction(p, start, end, "PURCHASE", offer=INTRO)
    s.notify(start + 2_000, "SUBSCRIBED", "INITIAL_BUY", 1, p, "subscribed to Individual Monthly with a 2-week free trial")
    s.notify(end + 3_000, "DID_FAIL_TO_RENEW", "GRACE_PERIOD", 4, p, "first paid renewal failed (billing); grace period")
    s.notify(add_days(end, 16) + 1_000, "GRACE_PERIOD_EXPIRED", None, 3, p, "grace period ended; still retrying")
    s.notify(add_days(end, 60) + 1_000, "EXPIRED", "BILLING_RETRY", 2, p, "expired: 60 days of billing retry failed")
    info = s.renewal_info(p, auto_renew=0, expirationIntent=2, isInBillingRetryPeriod=False)
    del info["renewalPrice"]
    return document(s.body(info))


def expired_price_increase():
    s = Subscriber("expired-price-increase", original=2000000702881390)
    p = "pass.premium.monthly"
    end = s.monthly(p, ms("2025-08-01 12:00:00"), 9)
    s.notify(ms("2025-08-01 12:00:02"), "SUBSCRIBED", "INITIAL_BUY", 1, p, "subscribed to Premium Monthly")
    s.notify(ms("2026-04-01 12:00:00"), "PRICE_INCREASE", "PENDING", 1, p,
             "price increase to 17.99 USD needs consent before the 2026-05-01 renewal")
    s.notify(end + 1_500, "EXPIRED", "PRICE_INCREASE", 2, p, "expired: the customer did not consent to the price increase")
    info = s.renewal_info(p, auto_renew=0, expirationIntent=3, priceIncreaseStatus=0, renewalPrice=17990)
    return document(s.body(info))


def refunded():
    """A support case from production: a full refund for an issue in the app."""
    s = Subscriber("refunded", environment="Production", original=510001873462915)
    p = "pass.premium.annual"
    start = ms("2026-03-02 19:48:31")
    refund = ms("2026-03-20 10:02:11")
    s.transaction(p, start, add_months(start, 12), "PURCHASE", revocationReason=1, revocationDate=refund,
                  revocationType="REFUND_FULL", revocationPercentage=100000,
                  appAccountToken="c0b8e2d4-5f17-4a63-9e2a-8b41d7f09c35")
    s.notify(start + 1_900, "SUBSCRIBED", "INITIAL_BUY", 1, p, "subscribed to Premium Annual")
    s.notify(ms("2026-03-18 22:14:50"), "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", 1, p,
             "auto-renew turned off after a refund request")
    s.notify(refund + 800, "REFUND", None, 5, p, "refunded 119.99 USD: issue in the app")
    info = s.renewal_info(p, auto_renew=0, expirationIntent=1)
    del info["renewalPrice"]
    sub = s.body(info)
    sub["supportTicket"] = "SUP-48213"
    return document(sub)


def family_shared():
    s = Subscriber("family-shared", original=2000000844310207)
    p = "pass.family.monthly"
    start = ms("2026-03-04 21:40:05")
    renewal = ms("2026-03-29 03:12:00")
    s.transaction(p, start, renewal, "PURCHASE", ownership="FAMILY_SHARED")
    s.notify(start + 2_300, "SUBSCRIBED", "INITIAL_BUY", 1, p, "Family Sharing: access to Family Monthly through the organizer")
    for k in range(2):
        s.transaction(p, add_months(renewal, k), add_months(renewal, k + 1), "RENEWAL", ownership="FAMILY_SHARED")
        s.notify(add_months(renewal, k) + 2_600, "DID_RENEW", None, 1, p, "organizer's Family Monthly renewed")
    info = s.renewal_info(p)
    del info["renewalPrice"]
    return document(s.body(info))


def ask_to_buy():
    sub = {"notifications": [], "askToBuy": {"productId": "pass.individual.monthly",
                                             "requestedDate": NOW - 2 * 3_600_000, "status": "pending"}}
    return document(sub, catalog_value=catalog(ask_to_buy=True))


def offer_in_effect():
    s = Subscriber("offer-in-effect", environment="Xcode", original=41)
    p = "pass.premium.monthly"
    start = ms("2026-04-06 17:25:38")
    code = {"offerType": 3, "offerIdentifier": "Spring 2026", "offerDiscountType": "PAY_AS_YOU_GO", "offerPeriod": "P3M"}
    s.transaction(p, start, add_months(start, 1), "PURCHASE", price=5990, offer=code)
    s.notify(start + 1_700, "OFFER_REDEEMED", "INITIAL_BUY", 1, p, "redeemed SPRING26: Premium Monthly at 5.99 USD for 3 months")
    s.transaction(p, add_months(start, 1), add_months(start, 2), "RENEWAL", price=5990, offer=code)
    s.notify(add_months(start, 1) + 2_200, "DID_RENEW", None, 1, p, "renewed Premium Monthly for 5.99 USD (offer period 2 of 3)")
    info = s.renewal_info(p, renewalPrice=5990, **code)
    sub = s.body(info, offerPeriodsRemaining=1, redeemedOfferCodes=[
        {"code": "SPRING26", "offerReference": "Spring 2026", "productId": p, "redeemedDate": start}])
    return document(sub)


def new_subscriber():
    return document({"notifications": []})


def contradictory():
    """Loads with warnings: a file stitched together from two sources by hand."""
    s = Subscriber("contradictory", original=2000000866120054)
    p = "pass.family.monthly"
    s.monthly(p, ms("2026-03-11 14:00:00"), 1)
    s.transaction(p, ms("2026-04-11 14:00:00"), ms("2026-05-11 14:00:00"), "RENEWAL", isUpgraded=True)
    s.notify(ms("2026-03-11 14:00:02"), "SUBSCRIBED", "INITIAL_BUY", 1, p, "subscribed to Family Monthly")
    s.notify(ms("2026-05-11 14:00:03"), "DID_FAIL_TO_RENEW", "GRACE_PERIOD", 4, p, "renewal failed; grace period")
    info = s.renewal_info("pass.duo.monthly", auto_renew_product="pass.premium.weekly",
                          gracePeriodExpiresDate=ms("2026-05-27 14:00:00"), offerType=7,
                          eligibleWinBackOfferIds=["family_winback_free_month"])
    info["environment"] = "Production"
    sub = s.body(info)
    sub["x-imported-from"] = "support-export-2026-05-14.csv"
    return document(sub)


def storekit_catalog():
    """The catalog comes from Apple's Backyard Birds sample .storekit beside this file."""
    s = Subscriber("storekit-catalog", environment="Xcode", original=0)
    p = "pass.family"
    start = 1776710736049.7297  # Xcode writes fractional milliseconds
    trial = {"offerType": 1, "offerDiscountType": "FREE_TRIAL", "offerPeriod": "P1M"}
    s.transaction(p, start, add_months(int(start), 1) + 0.7297, "PURCHASE", price=0, offer=trial, isUpgraded=False)
    del s.transactions[0]["storefrontId"]
    s.notify(int(start) + 1_400, "SUBSCRIBED", "INITIAL_BUY", 1, p, "subscribed to Family with a 1-month free trial")
    info = {"originalTransactionId": "0", "autoRenewProductId": p, "productId": p, "autoRenewStatus": 1,
            "renewalDate": s.transactions[0]["expiresDate"], "recentSubscriptionStartDate": start,
            "signedDate": NOW - 60_000, "environment": "Xcode"}
    winback = {"offerId": "bb_premium_winback", "productId": "pass.premium", "referenceName": "Premium Comeback",
               "offerMode": "PAY_AS_YOU_GO", "duration": "ONE_MONTH", "periodCount": 2, "displayPrice": "5.99",
               "customerEligibilityPaidSubscriptionDurationInMonths": 1,
               "customerEligibilityTimeSinceLastSubscribedInMonths": {"minimum": 0, "maximum": 12},
               "startDate": "2026-01-01", "priority": "NORMAL"}
    return document(s.body(info), catalog_file="backyard-birds.storekit", offerCodes=[], winBackOffers=[winback])


def commitment():
    """Premium Annual paid monthly with a 12-month commitment (App Store Server API 1.21 fields):
    payment 4 of 12, the commitment ends 2027-02-01 and renews monthly."""
    s = Subscriber("commitment", storefront=("GBR", "143444"), original=2000000912345670)
    p, monthly_price = "pass.premium.annual", 10990
    start = ms("2026-02-01 08:00:00")
    ends = add_months(start, 12)
    for k in range(4):
        begin = add_months(start, k)
        s.transaction(p, begin, add_months(start, k + 1), "PURCHASE" if k == 0 else "RENEWAL", price=monthly_price,
                      currency="GBP", billingPlanType="MONTHLY",
                      commitmentInfo={"billingPeriodNumber": k + 1, "totalBillingPeriods": 12,
                                      "commitmentExpiresDate": ends, "commitmentPrice": 12 * monthly_price})
        if k == 0:
            s.notify(begin + 2_100, "SUBSCRIBED", "INITIAL_BUY", 1, p,
                     "subscribed to Premium Annual, billed monthly with a 12-month commitment (payment 1 of 12)")
        else:
            s.notify(begin + 2_400, "DID_RENEW", None, 1, p, f"renewed Premium Annual: payment {k + 1} of 12, 10.99 GBP")
    info = s.renewal_info(p, renewalPrice=monthly_price, renewalBillingPlanType="MONTHLY",
                          commitmentInfo={"commitmentAutoRenewStatus": 1, "commitmentAutoRenewProductId": p,
                                          "commitmentRenewalBillingPlanType": "MONTHLY", "commitmentRenewalDate": ends,
                                          "commitmentRenewalPrice": monthly_price})
    info["currency"] = "GBP"  # not offered in the United States or Singapore (RevenueCat's availability note)
    return document(s.body(info))


EXAMPLES = {
    "active": active, "auto-renew-off": auto_renew_off, "pending-downgrade": pending_downgrade,
    "pending-crossgrade": pending_crossgrade, "price-increase": price_increase, "grace-period": grace_period,
    "billing-retry": billing_retry, "expired-voluntary": expired_voluntary, "expired-billing": expired_billing,
    "expired-price-increase": expired_price_increase, "refunded": refunded, "family-shared": family_shared,
    "ask-to-buy": ask_to_buy, "offer-in-effect": offer_in_effect, "new-subscriber": new_subscriber,
    "contradictory": contradictory, "storekit-catalog": storekit_catalog,
    "server-api-latest-only": server_api_latest_only, "commitment": commitment,
}


def main():
    OUT.mkdir(exist_ok=True)
    for name, make in EXAMPLES.items():
        text = json.dumps(make(), indent=2, ensure_ascii=False) + "\n"
        (OUT / f"{name}.json").write_text(text)
    print(f"wrote {len(EXAMPLES)} examples to {OUT}")


if __name__ == "__main__":
    main()
