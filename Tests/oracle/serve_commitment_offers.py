#!/usr/bin/env python3
"""Apple's client and verifier decode the offers SubDash places on a monthly plan with a 12-month
commitment (issue 21 §1; docs/simulation.md, "Offers on the monthly plan"), as `subdash serve`
returns them for a customer who took the plan's free trial, paid payments 1-2, redeemed a
pay-as-you-go promotional offer (payment 3 at its price), was refunded and bought the product
again up front:
- the trial: BillingPlanType.MONTHLY, OfferType.INTRODUCTORY, FREE_TRIAL, price 0, and a
  TransactionCommitmentInfo with 12 billing periods and no billingPeriodNumber yet;
- payments 1-3 numbered in order, one commitment end; payment 3 PROMOTIONAL, PAY_AS_YOU_GO, P3M;
- the up-front purchase: BillingPlanType.BILLED_UPFRONT without commitmentInfo, and the renewal
  info RenewalBillingPlanType.BILLED_UPFRONT without a RenewalCommitmentInfo.

Usage: serve_commitment_offers.py BASE_URL KEY_P8 KEY_ID ISSUER_ID BUNDLE_ID ROOT_DER ORIGINAL_ID
"""
import sys
from appstoreserverlibrary.models.BillingPlanType import BillingPlanType
from appstoreserverlibrary.models.OfferDiscountType import OfferDiscountType
from appstoreserverlibrary.models.OfferType import OfferType
from appstoreserverlibrary.models.RenewalBillingPlanType import RenewalBillingPlanType
from appstoreserverlibrary.models.TransactionCommitmentInfo import TransactionCommitmentInfo
from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest
from serve_oracle import ServeOracle

oracle = ServeOracle(*sys.argv[1:7])
original = sys.argv[7]
client, verifier, check, failures = oracle.client, oracle.verifier, oracle.check, oracle.failures


history, token = [], None
while True:
    page = client.get_transaction_history(original, token, TransactionHistoryRequest())
    history += [verifier.verify_and_decode_signed_transaction(s) for s in page.signedTransactions]
    if not page.hasMore:
        break
    token = page.revision
history.sort(key=lambda p: p.purchaseDate)
check(len(history) == 5, f"{len(history)} transactions, expected the trial, payments 1-3 and the up-front purchase")

trial = history[0]
check(trial.billingPlanType == BillingPlanType.MONTHLY, f"trial billingPlanType: {trial.rawBillingPlanType}")
check(trial.offerType == OfferType.INTRODUCTORY_OFFER and trial.offerDiscountType == OfferDiscountType.FREE_TRIAL,
      f"trial offer: {trial.rawOfferType} {trial.rawOfferDiscountType}")
check(trial.price == 0, f"trial price: {trial.price}")
tc = trial.commitmentInfo
check(isinstance(tc, TransactionCommitmentInfo) and tc.billingPeriodNumber is None and tc.totalBillingPeriods == 12,
      f"trial commitmentInfo: {tc!r}")

payments = [p for p in history if p.billingPlanType == BillingPlanType.MONTHLY and p.commitmentInfo and p.commitmentInfo.billingPeriodNumber]
check([p.commitmentInfo.billingPeriodNumber for p in payments] == [1, 2, 3], f"payments {[p.commitmentInfo.billingPeriodNumber for p in payments]}")
check(len({p.commitmentInfo.commitmentExpiresDate for p in payments} | {tc.commitmentExpiresDate if tc else None}) == 1,
      "the trial and the payments name more than one commitment end")
if len(payments) == 3:
    third = payments[2]
    check(third.offerType == OfferType.PROMOTIONAL_OFFER and third.offerDiscountType == OfferDiscountType.PAY_AS_YOU_GO
          and third.offerPeriod == "P3M" and third.price == 4990,
          f"payment 3: {third.rawOfferType} {third.rawOfferDiscountType} {third.offerPeriod} {third.price}")
    check(payments[0].offerType is None and payments[1].offerType is None, "payments 1-2 carry an offer")

statuses = client.get_all_subscription_statuses(original)
last = statuses.data[0].lastTransactions[0]
t = verifier.verify_and_decode_signed_transaction(last.signedTransactionInfo)
r = verifier.verify_and_decode_renewal_info(last.signedRenewalInfo)
check(t.billingPlanType == BillingPlanType.BILLED_UPFRONT and t.commitmentInfo is None,
      f"up-front purchase: {t.rawBillingPlanType} {t.commitmentInfo!r}")
check(r.renewalBillingPlanType == RenewalBillingPlanType.BILLED_UPFRONT and r.commitmentInfo is None,
      f"renewal info: {r.rawRenewalBillingPlanType} {r.commitmentInfo!r}")

if failures:
    print("serve-oracle: FAIL commitment offers: " + "; ".join(failures))
    sys.exit(1)
print("serve-oracle: ok, Apple's client decodes the monthly plan's free trial (TransactionCommitmentInfo without "
      "billingPeriodNumber), payments 1-3 with a PROMOTIONAL PAY_AS_YOU_GO payment 3, and BILLED_UPFRONT after")
