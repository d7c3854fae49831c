package io.okapigw.folio.data;

import java.util.List;

/**
 * The generated circulation policies.
 *
 * @param loanPolicies loan policies, at least one
 * @param requestPolicy the request policy
 * @param noticePolicy the patron notice policy
 * @param overdueFinePolicy the overdue fine policy
 * @param lostItemPolicy the lost item fee policy
 */
public record Policies(
    List<LoanPolicy> loanPolicies,
    Policy requestPolicy,
    NoticePolicy noticePolicy,
    Policy overdueFinePolicy,
    Policy lostItemPolicy) {}
