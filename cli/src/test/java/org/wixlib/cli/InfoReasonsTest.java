package org.wixlib.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.wixlib.TableKind;
import org.wixlib.Wixlib;
import org.wixlib.cli.report.Json;

/** {@code wixlib info} says why each unavailable kind cannot run here. */
class InfoReasonsTest {

  @Test
  void infoNamesTheReasonOfEveryUnavailableKind() {
    Cli j = Cli.run("info", "--format", "json");
    assertEquals(0, j.code, j.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(j.out);
    Object why = o.get("why_unavailable");
    if (((List<?>) o.get("kinds_unavailable")).isEmpty()) {
      assertNull(why, j.out);
      return;
    }
    String glht = Wixlib.unavailableReason(TableKind.GLHT).orElseThrow();
    assertEquals("glht, hive: " + glht, why, "both GPU kinds share the reason: " + j.out);
    Cli t = Cli.run("info");
    assertTrue(t.out.lines().anyMatch(l -> l.startsWith("why unavailable:") && l.endsWith(" glht, hive: " + glht)),
        t.out);
  }

  @Test
  void reasonsAreGroupedPerDistinctReason() {
    Wixlib.Info info = new Wixlib.Info("v", "v", List.of(TableKind.CPU), List.of(), 0, 0,
        Map.of(TableKind.GLHT, "GPU 0 is sm_80 (A100); this build runs on sm_90 and newer",
            TableKind.HIVE, "something else"));
    assertEquals("glht: GPU 0 is sm_80 (A100); this build runs on sm_90 and newer; hive: something else",
        InfoCommand.whyUnavailable(info));
    Wixlib.Info all = new Wixlib.Info("v", "v", List.of(TableKind.values()), List.of(), 0, 0, Map.of());
    assertNull(InfoCommand.whyUnavailable(all));
  }

  @Test
  void aCommandNeedingAnUnavailableKindGivesTheReason() {
    String why = Wixlib.unavailableReason(TableKind.HIVE).orElse(null);
    org.junit.jupiter.api.Assumptions.assumeTrue(why != null, "hive runs here");
    Cli v = Cli.run("verify", "--kind", "hive", "--ops", "1000");
    assertEquals(3, v.code, v.toString());
    assertTrue(v.err.contains("kind hive needs a usable GPU: " + why), v.err);
  }
}
