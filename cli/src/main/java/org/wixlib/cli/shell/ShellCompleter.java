package org.wixlib.cli.shell;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Tab completion from the picocli tree: command names first, then the command's options, the values
 * of enum options (kinds, formats), file names where a file is expected, and the session's table
 * names where a table is.
 */
final class ShellCompleter implements Completer {
  private final CommandLine commands;
  private final Session session;

  ShellCompleter(CommandLine commands, Session session) {
    this.commands = commands;
    this.session = session;
  }

  @Override
  public void complete(LineReader reader, ParsedLine line, List<Candidate> out) {
    List<String> words = line.words();
    int at = line.wordIndex();
    // Only the command after the last ';' counts.
    int start = 0;
    for (int i = 0; i < at; i++) {
      if (words.get(i).endsWith(";")) { // ";" alone or ending a word
        start = i + 1;
      }
    }
    if (at == start) {
      for (String name : commands.getSubcommands().keySet()) {
        out.add(new Candidate(name));
      }
      return;
    }
    CommandLine sub = commands.getSubcommands().get(words.get(start));
    if (sub == null) {
      return;
    }
    String word = line.word();
    String prev = words.get(at - 1);
    OptionSpec prevOption = option(sub, prev);
    if (prevOption != null && prevOption.arity().max() > 0) {
      values(reader, line, prevOption, out);
      return;
    }
    if (word.startsWith("-")) {
      for (OptionSpec o : sub.getCommandSpec().options()) {
        for (String n : o.names()) {
          out.add(new Candidate(n, n, null, o.description().length > 0 ? o.description()[0] : null, null, null, true));
        }
      }
      return;
    }
    if (sub.getCommandName().equals("help")) {
      for (String name : commands.getSubcommands().keySet()) {
        out.add(new Candidate(name));
      }
      return;
    }
    // Which positional is being typed: count the words before it that are not options or their values.
    int index = 0;
    for (int i = start + 1; i < at; i++) {
      OptionSpec o = option(sub, words.get(i));
      if (o != null) {
        i += Math.max(0, o.arity().max() > 0 ? 1 : 0);
      } else {
        index++;
      }
    }
    for (PositionalParamSpec p : sub.getCommandSpec().positionalParameters()) {
      if (p.index().contains(index)) {
        if (p.paramLabel().equals("TABLE")) {
          for (String t : session.names()) {
            out.add(new Candidate(t));
          }
        } else if (p.type() == Path.class || p.paramLabel().startsWith("FILE")) {
          files(line.word(), out);
        }
        return;
      }
    }
  }

  /** The option the word names exactly (picocli's findOption would also take "k" for "-k"). */
  private static OptionSpec option(CommandLine cmd, String word) {
    if (!word.startsWith("-")) {
      return null;
    }
    for (OptionSpec o : cmd.getCommandSpec().options()) {
      if (java.util.Arrays.asList(o.names()).contains(word)) {
        return o;
      }
    }
    return null;
  }

  private void values(LineReader reader, ParsedLine line, ArgSpec arg, List<Candidate> out) {
    Class<?> type = arg.type();
    if (type == Path.class) {
      files(line.word(), out);
    } else if (type == org.wixlib.TableKind.class) {
      for (String k : List.of("cpu", "glht", "hive")) {
        out.add(new Candidate(k));
      }
    } else if (type.isEnum()) {
      for (Object c : type.getEnumConstants()) {
        out.add(new Candidate(((Enum<?>) c).name().toLowerCase(Locale.ROOT)));
      }
    }
  }

  /** Entries of the directory the word points into; directories end with '/' and stay open. */
  static void files(String word, List<Candidate> out) {
    int slash = word.lastIndexOf('/');
    String dirPart = slash < 0 ? "" : word.substring(0, slash + 1);
    Path dir = Path.of(dirPart.isEmpty() ? "." : dirPart);
    try (java.util.stream.Stream<Path> entries = java.nio.file.Files.list(dir)) {
      entries.forEach(p -> {
        String name = p.getFileName().toString();
        boolean isDir = java.nio.file.Files.isDirectory(p);
        String value = dirPart + name + (isDir ? "/" : "");
        out.add(new Candidate(value, name + (isDir ? "/" : ""), null, null, null, null, !isDir));
      });
    } catch (java.io.IOException | RuntimeException e) {
      // no such directory: nothing to offer
    }
  }
}
