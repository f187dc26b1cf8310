package org.wixlib.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jline.reader.Candidate;
import org.jline.reader.impl.DefaultParser;
import org.junit.jupiter.api.Test;

/** Tab completion: commands, table names, options, kinds, formats. */
class ShellCompleterTest {
  Set<String> complete(Session s, String line) {
    ShellCompleter c = new ShellCompleter(CommandTree.build(s), s);
    List<Candidate> out = new ArrayList<>();
    c.complete(null, new DefaultParser().parse(line, line.length(), org.jline.reader.Parser.ParseContext.COMPLETE), out);
    Set<String> values = new TreeSet<>();
    for (Candidate cand : out) {
      values.add(cand.value());
    }
    return values;
  }

  @Test
  void completes() throws IOException {
    try (Session s = new Session(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), false)) {
      new ScriptRunner(s, false).line("create alpha --kind cpu; create beta --kind cpu", "");
      assertTrue(complete(s, "").containsAll(Set.of("create", "insert", "upsert", "find", "contains", "erase",
          "resize", "stats", "tables", "save", "load", "drop", "bench", "help", "exit")), complete(s, "").toString());
      assertEquals(Set.of("alpha", "beta"), complete(s, "find "));
      assertEquals(Set.of("alpha", "beta"), complete(s, "stats a"));
      assertEquals(Set.of("alpha", "beta"), complete(s, "create x; drop "));
      assertEquals(Set.of("cpu", "glht", "hive"), complete(s, "create t --kind "));
      assertEquals(Set.of("cpu", "glht", "hive"), complete(s, "create k -k "));
      assertTrue(complete(s, "create k --k").contains("--kind"), "an option after a table named like an option letter");
      assertEquals(Set.of("alpha", "beta"), complete(s, "insert --seed 3 "));
      assertTrue(complete(s, "insert alpha --format ").containsAll(Set.of("csv", "tsv", "i32", "i64kv")));
      assertTrue(complete(s, "insert alpha -").containsAll(Set.of("--from", "--random", "--skip-bad", "--seed")));
      assertTrue(complete(s, "create t -").containsAll(Set.of("--kind", "--capacity", "--max-load")));
      assertTrue(complete(s, "help ").contains("resize"));
      assertTrue(complete(s, "load ").contains("pom.xml"), "file names: " + complete(s, "load "));
      assertTrue(complete(s, "save alpha ").contains("pom.xml"), "file names");
      String dir = aDirectoryHere();
      assertTrue(complete(s, "insert alpha --from ").contains(dir + "/"), "directories: " + dir);
    }
  }

  /** Some non-hidden directory of the working directory (Maven runs tests in the module, others elsewhere). */
  private static String aDirectoryHere() throws IOException {
    try (Stream<Path> entries = Files.list(Path.of("."))) {
      return entries.filter(Files::isDirectory).map(p -> p.getFileName().toString())
          .filter(n -> !n.startsWith(".")).sorted().findFirst().orElseThrow();
    }
  }
}
