package io.okapigw.folio.module;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The subset of CQL the simulated storage modules understand: equality clauses joined by {@code
 * and}, values quoted or not, a trailing {@code *} for a prefix match, an optional {@code sortBy
 * ...} (ignored), and {@code cql.allRecords=1}. Field names may be dotted ({@code status.name}).
 * Example: {@code itemId=="abc" and status.name=="Open"}.
 */
public final class CqlQuery {

  /**
   * One {@code field==value} clause.
   *
   * @param field dotted field name
   * @param value the value, unescaped, without a trailing wildcard
   * @param prefix whether the value ended with {@code *}
   */
  public record Clause(String field, String value, boolean prefix) {

    boolean test(JsonObject record) {
      Object actual = valueAt(record, field);
      if (actual == null) {
        return false;
      }
      String text = actual.toString();
      return prefix ? text.startsWith(value) : text.equals(value);
    }
  }

  private static final Pattern CLAUSE =
      Pattern.compile(
          "\\s*([A-Za-z_][\\w.]*)\\s*(==|=)\\s*(\"((?:[^\"\\\\]|\\\\.)*)\"|[^\\s\"()]+)\\s*");
  private static final Pattern AND = Pattern.compile("\\s+and\\s+", Pattern.CASE_INSENSITIVE);
  private static final Pattern SORT_BY =
      Pattern.compile("\\s+sortBy\\s+.*$", Pattern.CASE_INSENSITIVE);

  private final List<Clause> clauses;

  private CqlQuery(List<Clause> clauses) {
    this.clauses = List.copyOf(clauses);
  }

  /**
   * @return a query matching every record
   */
  public static CqlQuery all() {
    return new CqlQuery(List.of());
  }

  /**
   * @param cql the query; null or blank matches everything
   * @throws ModuleError 400 naming the part it cannot parse
   */
  public static CqlQuery parse(String cql) {
    if (cql == null || cql.isBlank()) {
      return all();
    }
    String body = SORT_BY.matcher(cql.trim()).replaceFirst("").trim();
    body = stripParentheses(body);
    if (body.equals("cql.allRecords=1")) {
      return all();
    }
    List<Clause> clauses = new ArrayList<>();
    for (String part : AND.split(body)) {
      clauses.add(clause(stripParentheses(part.trim()), cql));
    }
    return new CqlQuery(clauses);
  }

  /**
   * @return the clauses, all of which a record must match
   */
  public List<Clause> clauses() {
    return clauses;
  }

  /**
   * @return whether {@code record} matches every clause
   */
  public boolean test(JsonObject record) {
    return clauses.stream().allMatch(c -> c.test(record));
  }

  /**
   * @return the exact (non-prefix) value required for {@code field}, if any
   */
  public Optional<String> exact(String field) {
    return clauses.stream()
        .filter(c -> c.field().equals(field) && !c.prefix())
        .map(Clause::value)
        .findFirst();
  }

  /**
   * @return a CQL string literal for {@code value}: quoted, with quotes and backslashes escaped
   */
  public static String quote(String value) {
    return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"").replace("*", "\\*") + "\"";
  }

  private static Clause clause(String text, String whole) {
    Matcher m = CLAUSE.matcher(text);
    if (!m.matches()) {
      throw ModuleError.badRequest(
          "unsupported CQL query '"
              + whole
              + "': cannot parse '"
              + text
              + "' (supported: field==value joined by 'and')");
    }
    String raw = m.group(4) != null ? m.group(4) : m.group(3);
    boolean prefix = raw.endsWith("*") && !raw.endsWith("\\*");
    String value = prefix ? raw.substring(0, raw.length() - 1) : raw;
    return new Clause(m.group(1), value.replaceAll("\\\\(.)", "$1"), prefix);
  }

  private static String stripParentheses(String text) {
    String s = text;
    while (s.startsWith("(") && closingIndex(s) == s.length() - 1) {
      s = s.substring(1, s.length() - 1).trim();
    }
    return s;
  }

  /**
   * @return the index of the parenthesis closing the one at 0, ignoring quoted text
   */
  private static int closingIndex(String s) {
    int depth = 0;
    boolean quoted = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (quoted && c == '\\') {
        i++;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (!quoted && c == '(') {
        depth++;
      } else if (!quoted && c == ')' && --depth == 0) {
        return i;
      }
    }
    return -1;
  }

  private static Object valueAt(JsonObject record, String field) {
    Object current = record;
    for (String name : field.split("\\.")) {
      if (!(current instanceof JsonObject object)) {
        return null;
      }
      current = object.getValue(name);
    }
    return current;
  }
}
