#!/usr/bin/env python3
"""Apple's client and verifier decode the 12-month commitment SubDash simulates and `subdash serve`
returns (issue 21 §1): every transaction of the subscriber carries `billingPlanType` MONTHLY and a
`TransactionCommitmentInfo` (payments 1, 2, … of 12, one commitment end), and the renewal info
`renewalBillingPlanType` MONTHLY with a `RenewalCommitmentInfo` whose auto-renew status is off
(the customer cancelled in month 4) while the renewal info's own stays on, as Apple's life-cycle
page describes.

Usage: serve_commitment.py BASE_URL KEY_P8 KEY_ID ISSUER_ID BUNDLE_ID ROOT_DER ORIGINAL_ID
"""
import sys
from appstoreserverlibrary.models.AutoRenewStatus import AutoRenewStatus
from appstoreserverlibrary.models.BillingPlanType import BillingPlanType
from appstoreserverlibrary.models.RenewalBillingPlanType import RenewalBillingPlanType
from appstoreserverlibrary.models.RenewalCommitmentInfo import RenewalCommitmentInfo
from appstoreserverlibrary.models.TransactionCommitmentInfo import TransactionCommitmentInfo
from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest
from serve_oracle import ServeOracle

oracle = ServeOracle(*sys.argv[1:7])
original = sys.argv[7]
client, verifier, check, failures = oracle.client, oracle.verifier, oracle.check, oracle.failures


statuses = client.get_all_subscription_statuses(original)
last = statuses.data[0].lastTransactions[0]
t = verifier.verify_and_decode_signed_transaction(last.signedTransactionInfo)
r = verifier.verify_and_decode_renewal_info(last.signedRenewalInfo)
check(t.billingPlanType == BillingPlanType.MONTHLY, f"latest billingPlanType: {t.rawBillingPlanType}")
c = t.commitmentInfo
check(isinstance(c, TransactionCommitmentInfo), f"latest commitmentInfo: {c!r}")
check(c is not None and c.totalBillingPeriods == 12 and 1 <= (c.billingPeriodNumber or 0) <= 12, f"latest commitmentInfo: {c!r}")
check(r.renewalBillingPlanType == RenewalBillingPlanType.MONTHLY, f"renewalBillingPlanType: {r.rawRenewalBillingPlanType}")
rc = r.commitmentInfo
check(isinstance(rc, RenewalCommitmentInfo), f"renewal commitmentInfo: {rc!r}")
check(rc is not None and rc.commitmentAutoRenewStatus == AutoRenewStatus.OFF, f"commitmentAutoRenewStatus: {rc!r}")
check(r.autoRenewStatus == AutoRenewStatus.ON, f"autoRenewStatus: {r.rawAutoRenewStatus}")
check(rc is not None and c is not None and rc.commitmentRenewalDate == c.commitmentExpiresDate, "commitmentRenewalDate is not commitmentExpiresDate")
check(rc is not None and rc.commitmentRenewalBillingPlanType == RenewalBillingPlanType.MONTHLY, f"commitmentRenewalBillingPlanType: {rc!r}")

# The whole history: one transaction per payment, numbered in order, one commitment end.
numbers, ends, token = [], set(), None
while True:
    page = client.get_transaction_history(original, token, TransactionHistoryRequest())
    for signed in page.signedTransactions:
        p = verifier.verify_and_decode_signed_transaction(signed)
        check(p.billingPlanType == BillingPlanType.MONTHLY, f"history billingPlanType: {p.rawBillingPlanType}")
        if isinstance(p.commitmentInfo, TransactionCommitmentInfo):
            numbers.append(p.commitmentInfo.billingPeriodNumber)
            ends.add(p.commitmentInfo.commitmentExpiresDate)
    if not page.hasMore:
        break
    token = page.revision
check(sorted(numbers) == list(range(1, len(numbers) + 1)) and len(numbers) >= 4, f"billing period numbers {numbers}")
check(len(ends) == 1, f"commitment ends {ends}")

if failures:
    print("serve-oracle: FAIL commitment: " + "; ".join(failures))
    sys.exit(1)
print(f"serve-oracle: ok, Apple's client decodes the commitment: payments {sorted(numbers)} of 12 with TransactionCommitmentInfo, "
      "BillingPlanType.MONTHLY, RenewalCommitmentInfo with commitmentAutoRenewStatus OFF and autoRenewStatus ON")
