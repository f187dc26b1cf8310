package org.wixlib.cli.report;

/** Output formats of the data a command prints on stdout. */
public enum Format {
  /** Aligned columns for people. */
  TABLE,
  /** Comma-separated, header row first; metadata as leading '#' comment lines. */
  CSV,
  /** One JSON object. */
  JSON
}
