package org.wixlib.cli;

/** Output formats of the data a command prints on stdout. */
enum Format {
  /** Aligned columns for people. */
  TABLE,
  /** Comma-separated, header row first; metadata as leading '#' comment lines. */
  CSV,
  /** One JSON object. */
  JSON
}
