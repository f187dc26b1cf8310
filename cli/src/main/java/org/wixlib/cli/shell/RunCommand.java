package org.wixlib.cli.shell;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.wixlib.cli.VersionProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code wixlib run SCRIPT}: the shell's commands from a file, one or more per line. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Runs a script of session commands (those of 'wixlib shell'; 'wixlib shell' then 'help' lists them),"
          + " one or more per line separated by ';', '#' starting a comment. The first failing command stops"
          + " the script with its line number and exit code, unless --keep-going."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  wixlib run build.wx",
      "  printf 'create t --kind cpu\\ninsert t --random 1M\\nstats t\\n' | wixlib run -",
      "  wixlib -c 'create t --kind cpu; insert t 1=10 2=20; find t 1 2 3'"
    })
public final class RunCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "SCRIPT", description = "The script file, or - for standard input.")
  String script;

  @Option(names = "--keep-going", description = "Run the rest after a failing command; exit with the first failure's code.")
  boolean keepGoing;

  @Option(names = "--quiet", description = "Nothing on stderr but errors (no messages of the commands).")
  boolean quiet;

  @Override
  public Integer call() throws IOException {
    List<String> lines;
    if (script.equals("-")) {
      lines = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).lines().toList();
    } else {
      try {
        lines = Files.readAllLines(Path.of(script), StandardCharsets.UTF_8);
      } catch (NoSuchFileException e) {
        throw new ShellError(script + ": no such file");
      }
    }
    return runLines(spec, lines, script.equals("-") ? "stdin" : script, keepGoing, quiet);
  }

  /** Runs session commands; quiet: the commands' messages stay off stderr (errors do not). */
  public static int runLines(CommandSpec spec, List<String> lines, String name, boolean keepGoing, boolean quiet) {
    try (Session s = new Session(spec.commandLine().getOut(), spec.commandLine().getErr(), false)) {
      s.quiet = quiet;
      return new ScriptRunner(s, keepGoing).script(lines, name);
    }
  }
}
