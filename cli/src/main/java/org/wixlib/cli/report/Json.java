package org.wixlib.cli.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;

/**
 * JSON through Jackson: a report's values (String, Number, Boolean, List, Map, null) written as one
 * indented object, with non-finite numbers as null; JSON text read back as Map, List, String, Number
 * (Integer or Long for whole numbers, Double otherwise), Boolean or null.
 */
public final class Json {
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .addModule(new SimpleModule().addSerializer(Double.class, new FiniteOrNull()))
      .build();
  private static final ObjectWriter WRITER = MAPPER.writer(new DefaultPrettyPrinter(Separators.createDefaultInstance()
      .withObjectFieldValueSpacing(Separators.Spacing.AFTER))
      .withArrayIndenter(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE));

  private Json() {}

  public static String write(Object value) {
    try {
      return WRITER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not writable as JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** Parses one JSON value; throws IllegalArgumentException (with the line and column) for anything else. */
  public static Object read(String text) {
    try {
      return MAPPER.readValue(text, Object.class);
    } catch (JsonProcessingException e) {
      var at = e.getLocation();
      throw new IllegalArgumentException(e.getOriginalMessage()
          + (at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr()), e);
    }
  }

  /** NaN and infinities have no JSON number: written as null. */
  private static final class FiniteOrNull extends StdSerializer<Double> {
    private static final long serialVersionUID = 1L;

    FiniteOrNull() {
      super(Double.class);
    }

    @Override
    public void serialize(Double v, JsonGenerator g, SerializerProvider p) throws IOException {
      if (Double.isFinite(v)) {
        g.writeNumber(v);
      } else {
        g.writeNull();
      }
    }
  }
}
