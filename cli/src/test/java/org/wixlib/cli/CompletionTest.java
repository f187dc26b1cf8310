package org.wixlib.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** wixlib generate-completion: a bash/zsh completion script of every command and option, listed in the help. */
class CompletionTest {
  @Test
  void printsACompletionScriptOfTheWholeTree() {
    Cli r = Cli.run("generate-completion");
    assertEquals(0, r.code, r.toString());
    assertTrue(r.out.startsWith("#!/usr/bin/env bash"), r.out.substring(0, Math.min(200, r.out.length())));
    assertTrue(r.out.contains("complete -F _complete_wixlib"), "registers the function for the wixlib command");
    for (String word : new String[] {"bench", "verify", "join", "shell", "--kind", "--load-factor", "--format"}) {
      assertTrue(r.out.contains(word), "completes " + word);
    }
    assertTrue(r.err.isEmpty(), r.err);
  }

  @Test
  void theHelpListsIt() {
    Cli r = Cli.run("--help");
    assertTrue(r.out.contains("generate-completion"), r.out);
  }
}
