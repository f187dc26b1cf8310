package org.wixlib.cli.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a shell line into commands (separated by ';') and words (separated by blanks), honouring
 * '...' and "..." quotes and backslash escapes; '#' at the start of a word begins a comment.
 */
final class LineSplitter {
  private LineSplitter() {}

  /** The commands of the line, each a non-empty list of words. */
  static List<List<String>> split(String line) {
    List<List<String>> commands = new ArrayList<>();
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else if (c == '\\' && quote == '"' && i + 1 < line.length()) {
          word.append(line.charAt(++i));
        } else {
          word.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        inWord = true;
      } else if (c == '\\' && i + 1 < line.length()) {
        word.append(line.charAt(++i));
        inWord = true;
      } else if (Character.isWhitespace(c) || c == ';') {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
          inWord = false;
        }
        if (c == ';' && !words.isEmpty()) {
          commands.add(words);
          words = new ArrayList<>();
        }
      } else if (c == '#' && !inWord) {
        break;
      } else {
        word.append(c);
        inWord = true;
      }
    }
    if (quote != 0) {
      throw new ShellError("unterminated " + quote + " quote");
    }
    if (inWord) {
      words.add(word.toString());
    }
    if (!words.isEmpty()) {
      commands.add(words);
    }
    return commands;
  }
}
