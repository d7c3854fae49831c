package io.okapigw.folio.data;

/** Whether and how a generated patron is blocked from borrowing. */
public enum PatronBlock {
  /** Not blocked. */
  NONE,
  /** A manual block (mod-feesfines {@code /manualblocks}) with borrowing blocked. */
  MANUAL,
  /** An automated block (mod-patron-blocks {@code /automated-patron-blocks/{userId}}). */
  AUTOMATED
}
