package org.wixlib.cli.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a command prints on stdout, independent of the format: a block of named fields (the header:
 * versions, parameters, totals) and an optional table of rows. Keys and column names are snake_case;
 * the table format shows them with spaces.
 */
public final class Report {
  private final Map<String, Object> fields = new LinkedHashMap<>();
  private final String rowsName;
  private final List<String> columns;
  private final List<List<Object>> rows = new ArrayList<>();

  /** A report whose rows (if any) are called rowsName in JSON and have these columns. */
  public Report(String rowsName, String... columns) {
    this.rowsName = rowsName;
    this.columns = List.of(columns);
  }

  /** Adds or replaces a header field; values are String, Number, Boolean, List or null. */
  public Report field(String key, Object value) {
    fields.put(key, value);
    return this;
  }

  /** Appends a row: one value per column (null = no value). */
  public Report row(Object... values) {
    if (values.length != columns.size()) {
      throw new IllegalArgumentException("row has " + values.length + " values for " + columns.size()
          + " columns");
    }
    rows.add(Collections.unmodifiableList(new ArrayList<>(Arrays.asList(values))));
    return this;
  }

  /** Replaces all header fields (keeps their order). */
  public Report fieldsReplace(Map<String, Object> newFields) {
    fields.clear();
    fields.putAll(newFields);
    return this;
  }

  public Map<String, Object> fields() {
    return Collections.unmodifiableMap(fields);
  }

  String rowsName() {
    return rowsName;
  }

  public List<String> columns() {
    return columns;
  }

  public List<List<Object>> rows() {
    return Collections.unmodifiableList(rows);
  }
}
