package org.wixlib.cli.shell;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/** The shell at a terminal: JLine line editing, history, completion; Ctrl-C cancels the running command. */
final class InteractiveShell {
  private InteractiveShell() {}

  static int run(PrintWriter out, PrintWriter err, Path history) throws IOException {
    try (Terminal terminal = TerminalBuilder.builder().system(true).name("wixlib").build();
        Session session = new Session(out, err, true)) {
      ScriptRunner runner = new ScriptRunner(session, true);
      DefaultParser parser = new DefaultParser();
      parser.setEofOnUnclosedQuote(false);
      LineReader reader = LineReaderBuilder.builder()
          .terminal(terminal)
          .appName("wixlib")
          .parser(parser)
          .completer(new ShellCompleter(runner.commands(), session))
          .variable(LineReader.HISTORY_FILE, history)
          .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
          .build();
      // While a command runs the terminal is in normal mode: Ctrl-C is a SIGINT, which cancels it.
      terminal.handle(Terminal.Signal.INT, sig -> session.requestCancel());
      err.println("wixlib shell: 'help' lists the commands, Tab completes, Ctrl-C cancels a command, Ctrl-D leaves.");
      err.flush();
      while (true) {
        String line;
        try {
          line = reader.readLine(ShellCommand.PROMPT);
        } catch (UserInterruptException e) {
          continue; // Ctrl-C at the prompt drops the line
        } catch (EndOfFileException e) {
          break;
        }
        runner.line(line, "");
        if (session.exitRequested) {
          break;
        }
      }
      try {
        reader.getHistory().save();
      } catch (IOException e) {
        err.println("wixlib: history not saved: " + e.getMessage());
      }
      return session.exitRequested ? session.exitCode : 0;
    }
  }
}
