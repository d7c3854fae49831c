package io.okapigw.folio.module;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * An in-memory collection of JSON records keyed by {@code id}, with exact-match indexes on chosen
 * top-level fields so that {@code barcode==X} or {@code itemId==X} queries don't scan. Records go
 * in and come out as copies. Every method is synchronized: a store is safe to share, and {@link
 * #putUnless} is atomic.
 */
public final class JsonStore {

  private final Map<String, JsonObject> records = new LinkedHashMap<>();
  private final Map<String, Map<String, Set<String>>> indexes = new HashMap<>();

  /**
   * @param indexedFields top-level fields to index, e.g. {@code "barcode"}
   */
  public JsonStore(String... indexedFields) {
    for (String field : indexedFields) {
      indexes.put(field, new HashMap<>());
    }
  }

  /**
   * A page of query results.
   *
   * @param totalRecords how many records matched
   * @param records the matching records from offset, at most limit of them
   */
  public record Page(int totalRecords, List<JsonObject> records) {

    /**
     * @return FOLIO's collection shape: {@code {"<name>": [...], "totalRecords": n}}
     */
    public JsonObject toJson(String name) {
      return new JsonObject()
          .put(name, new JsonArray(List.copyOf(records)))
          .put("totalRecords", totalRecords);
    }
  }

  /** Inserts or replaces the record with the same id. */
  public synchronized void put(JsonObject record) {
    String id = record.getString("id");
    JsonObject old = records.put(id, record.copy());
    if (old != null) {
      unindex(old);
    }
    index(record);
  }

  /** Puts every record. */
  public synchronized void putAll(Collection<JsonObject> all) {
    all.forEach(this::put);
  }

  /**
   * Puts {@code record} (insert or replace) unless another stored record (one with a different id)
   * matches {@code conflict}, in one step.
   *
   * @return whether it was put
   */
  public synchronized boolean putUnless(JsonObject record, CqlQuery conflict) {
    String id = record.getString("id");
    boolean clash =
        candidates(conflict).stream()
            .anyMatch(other -> conflict.test(other) && !other.getString("id").equals(id));
    if (clash) {
      return false;
    }
    put(record);
    return true;
  }

  /**
   * @return a copy of the record with this id
   */
  public synchronized Optional<JsonObject> get(String id) {
    JsonObject record = records.get(id);
    return record == null ? Optional.empty() : Optional.of(record.copy());
  }

  /**
   * @return whether a record with this id was there
   */
  public synchronized boolean remove(String id) {
    JsonObject old = records.remove(id);
    if (old != null) {
      unindex(old);
    }
    return old != null;
  }

  /** Removes every record matching {@code which}. */
  public synchronized void removeIf(Predicate<JsonObject> which) {
    List<String> ids = records.values().stream().filter(which).map(r -> r.getString("id")).toList();
    ids.forEach(this::remove);
  }

  /**
   * @return how many records there are
   */
  public synchronized int size() {
    return records.size();
  }

  /**
   * @param query what to match
   * @param offset matches to skip
   * @param limit largest number of records to return (0 = count only)
   */
  public synchronized Page search(CqlQuery query, int offset, int limit) {
    List<JsonObject> matching = candidates(query).stream().filter(query::test).toList();
    List<JsonObject> page =
        matching.stream().skip(offset).limit(limit).map(JsonObject::copy).toList();
    return new Page(matching.size(), page);
  }

  private Collection<JsonObject> candidates(CqlQuery query) {
    for (Map.Entry<String, Map<String, Set<String>>> index : indexes.entrySet()) {
      Optional<String> value = query.exact(index.getKey());
      if (value.isPresent()) {
        return index.getValue().getOrDefault(value.get(), Set.of()).stream()
            .map(records::get)
            .toList();
      }
    }
    return records.values();
  }

  private void index(JsonObject record) {
    indexes.forEach(
        (field, index) -> {
          Object value = record.getValue(field);
          if (value != null) {
            index
                .computeIfAbsent(value.toString(), v -> new LinkedHashSet<>())
                .add(record.getString("id"));
          }
        });
  }

  private void unindex(JsonObject record) {
    indexes.forEach(
        (field, index) -> {
          Object value = record.getValue(field);
          Set<String> ids = value == null ? null : index.get(value.toString());
          if (ids != null) {
            ids.remove(record.getString("id"));
            if (ids.isEmpty()) {
              index.remove(value.toString());
            }
          }
        });
  }
}
