package org.wixlib.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Checks SVG text without java.xml (absent from the GPU machine's small runtime): header, balanced tags. */
public final class SvgCheck {
  private static final Pattern TAG = Pattern.compile("<(/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*?(/?)>");

  private SvgCheck() {}

  public static void wellFormed(String svg) {
    assertTrue(svg.startsWith("<?xml version=\"1.0\""), "XML declaration first");
    assertTrue(svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""), "an svg root");
    assertTrue(svg.strip().endsWith("</svg>"), "closed root");
    String body = svg.substring(svg.indexOf("?>") + 2);
    Deque<String> open = new ArrayDeque<>();
    Matcher m = TAG.matcher(body);
    int elements = 0;
    while (m.find()) {
      String name = m.group(2);
      if (!m.group(3).isEmpty()) {
        elements++;
      } else if (m.group(1).isEmpty()) {
        open.push(name);
        elements++;
      } else {
        assertEquals(open.isEmpty() ? null : open.peek(), name, "closing tag matches the open one");
        open.pop();
      }
    }
    assertTrue(open.isEmpty(), "unclosed: " + open);
    assertTrue(elements >= 3, "has content: " + elements + " elements");
    // Text is escaped: no raw '&' that does not start an entity.
    assertTrue(!Pattern.compile("&(?!amp;|lt;|gt;|quot;)").matcher(body).find(), "escaped text");
  }
}
