package io.okapigw.it.differential;

import java.util.Locale;

/** What of an answer can differ between Okapi and our gateway, and whether that matters. */
enum Aspect {
  /** The status code. */
  STATUS(true),
  /** The Location header (after replacing each gateway's own URL by the same placeholder). */
  LOCATION(true),
  /** The kind of Content-Type: JSON, other text, none. */
  TYPE(true),
  /** JSON bodies: members (in any order), arrays in order, values. */
  JSON(true),
  /** A body that is not JSON, of an answer that is not an error. */
  BODY(true),
  /** The text of an error answer: ours name the tenant, module or path, Okapi's are generic. */
  MESSAGE(false);

  private final boolean matters;

  Aspect(boolean matters) {
    this.matters = matters;
  }

  /**
   * @return whether a difference in it counts against us unless the script accepts it with a reason
   */
  boolean matters() {
    return matters;
  }

  /**
   * @return the aspect a script names ({@code status}, {@code location}, ...)
   * @throws IllegalArgumentException naming the word if there is none
   */
  static Aspect named(String word) {
    try {
      return valueOf(word.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "no aspect " + word + " (status, location, type, json, body, message)");
    }
  }
}
