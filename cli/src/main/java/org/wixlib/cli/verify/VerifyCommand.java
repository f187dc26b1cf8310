package org.wixlib.cli.verify;

import java.util.concurrent.Callable;
import org.wixlib.GrowPolicy;
import org.wixlib.HashTable;
import org.wixlib.TableKind;
import org.wixlib.cli.CountConverter;
import org.wixlib.cli.ExitCodes;
import org.wixlib.cli.KindOption;
import org.wixlib.cli.OutputOptions;
import org.wixlib.cli.TableOptions;
import org.wixlib.cli.Texts;
import org.wixlib.cli.VersionProvider;
import org.wixlib.cli.report.Report;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code wixlib verify}: randomized differential test of a table kind against an oracle, at 32 or 64 key bits. */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
      "Runs random mixed batches (30%% insert, 20%% insert-or-assign, 20%% erase, 30%% find) through"
          + " HashTable.batch and checks every result against an oracle of the table's contents.",
      "",
      "Distinct-key phase: the keys of one batch are distinct, so every outcome, found value and the"
          + " key's state after the batch is checked exactly.",
      "Hot-key phase (--hot-fraction of the ops): batches hit --hot-keys keys many times at once; per"
          + " key some sequential order of its ops must give every reported outcome and found value and"
          + " end in the key's state after the batch (an exact check: e.g. an insert whose value"
          + " overwrites a concurrent assign is caught).",
      "Keys outside a batch: a batch's keys are read back before it (they must be as the oracle left"
          + " them; hot keys only once, then each batch's read-back after it serves the next), size() is"
          + " compared after every batch, and the whole table whenever the ops since the last comparison"
          + " reach 4x its size.",
      "With --zipf S the second phase draws its keys Zipf-distributed (exponent S) over the whole key range"
          + " instead of from --hot-keys keys: a few keys get a large share of every batch, and every key a"
          + " batch touched is checked the same way.",
      "With --resize-every N the table is resized every N batches, alternately up (room for 4x its keys)"
          + " and back down to its size, and compared whole with the oracle after each resize.",
      "At the end retrieveAll() must equal the oracle, again after resize(), and clear() must empty it.",
      "With --key-bits 64 the table is built with 64-bit keys and values (long[] calls, retrieveAllLong) and"
          + " checked the same way: keys spread over all 64 bits, in pairs that differ only in their high 32"
          + " bits (the hot keys too, and Zipf ranks 2j and 2j+1), and values use all 64 bits.",
      "The checking runs on --check-threads threads over a fixed split of the keys, so the ops and the"
          + " verdict are the same for any thread count.",
      "The table starts at --capacity keys, so it grows during the run.",
      "With --shards N the table is split into N shards (GPU kinds: on --devices, if given) and checked the same"
          + " way: a sharded table must answer every call exactly as one table, in the caller's order.",
      "",
      "On a mismatch the first offending key is printed with its ops and outcomes (stderr) and the"
          + " exit code is 1. Progress goes to stderr, the summary to stdout."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  wixlib verify --kind cpu --ops 10M",
      "  wixlib verify --kind glht --ops 2^24 --batch 2^20 --key-range 2^22 --seed 7",
      "  wixlib verify --kind hive --hot-keys 8 --hot-fraction 0.5 --format json",
      "  wixlib verify --kind glht --ops 10^8 --batch 2^20 --hot-fraction 0.5 --zipf 0.99 --resize-every 16",
      "  wixlib verify --kind cpu --shards 4 --ops 4M",
      "  wixlib verify --kind glht --devices 0,1 --ops 2^24 --batch 2^20 --hot-fraction 0.5",
      "  wixlib verify --kind hive --key-bits 64 --ops 10^9 --batch 2^20 --key-range 2^22 --hot-fraction 0.5"
          + " --zipf 0.99 --resize-every 16"
    })
public final class VerifyCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin KindOption kindOption;
  @Mixin TableOptions table;
  @Mixin OutputOptions output;

  @Option(names = {"-n", "--ops"}, paramLabel = "N", defaultValue = "1M", converter = CountConverter.class,
      description = "Total ops to run and check, e.g. 10M, 2^24 (default: ${DEFAULT-VALUE}).")
  long ops;

  @Option(names = {"-b", "--batch"}, paramLabel = "B", defaultValue = "2^16", converter = CountConverter.class,
      description = "Ops per batch call (default: ${DEFAULT-VALUE}).")
  long batch;

  @Option(names = "--key-range", paramLabel = "R", converter = CountConverter.class,
      description = "Distinct keys the ops draw from, at least --batch"
          + " (default: ops/4 within [4*batch, 2^24], so keys repeat across batches).")
  Long keyRange;

  @Option(names = "--hot-keys", paramLabel = "H", defaultValue = "64",
      description = "Keys of the hot-key phase; half its ops go to the 4 hottest (default: ${DEFAULT-VALUE}).")
  int hotKeys;

  @Option(names = "--hot-fraction", paramLabel = "F", defaultValue = "0.2",
      description = "Share of the ops run in the hot-key phase (default: ${DEFAULT-VALUE}).")
  double hotFraction;

  @Option(names = "--zipf", paramLabel = "S", defaultValue = "0",
      description = "Zipf exponent of the second phase's keys over the whole key range (0: use --hot-keys instead;"
          + " default: ${DEFAULT-VALUE}).")
  double zipf;

  @Option(names = "--resize-every", paramLabel = "N", defaultValue = "0",
      description = "Resize the table every N batches, up and back down, comparing it whole each time"
          + " (0: never; default: ${DEFAULT-VALUE}).")
  int resizeEvery;

  @Option(names = "--key-bits", paramLabel = "B", defaultValue = "32",
      description = "Width of keys and values: 32 (int) or 64 (long: the table is built with keyBits(64))"
          + " (default: ${DEFAULT-VALUE}).")
  int keyBits;

  @Option(names = "--check-threads", paramLabel = "T", defaultValue = "0",
      description = "Java threads that draw and check the ops; the results do not depend on it (0 = all cores;"
          + " default: ${DEFAULT-VALUE}).")
  int checkThreads;

  @Option(names = "--capacity", paramLabel = "C", defaultValue = "1024", converter = CountConverter.class,
      description = "Initial capacity of the table; small makes it grow during the run (default: ${DEFAULT-VALUE}).")
  long capacity;

  @Override
  public Integer call() {
    TableKind kind = kindOption.kind();
    validate();
    int b = (int) Math.min(batch, Math.max(ops, 1));
    long range = keyRange != null ? keyRange : Math.max(4L * b, Math.min(ops / 4, 1L << 24));
    if (range < b) {
      throw new ParameterException(spec.commandLine(), "--key-range (" + range + ") must be at least the batch size ("
          + b + ") so that a batch can have distinct keys");
    }
    table.checkSharding(java.util.List.of(kind));
    table.requireAvailable(kind);
    String name = Texts.kindName(kind);
    int threads = checkThreads > 0 ? checkThreads : Runtime.getRuntime().availableProcessors();
    output.progress("verify " + name + ": " + ops + " ops in batches of " + b + ", " + keyBits + "-bit keys, key range "
        + range + ", seed " + table.seed);
    Verifier.Params params = new Verifier.Params(table.seed, ops, b, range, hotKeys, hotFraction, zipf, resizeEvery,
        keyBits, threads);
    Verifier.Result res;
    HashTable.Builder builder = HashTable.builder().kind(kind).keyBits(keyBits).capacity(capacity)
        .growPolicy(GrowPolicy.AUTO);
    table.place(builder, kind);
    long resizes;
    try (HashTable t = builder.build()) {
      res = new Verifier(params, name, output).run(VerifyTarget.of(t));
      resizes = t.stats().resizes();
    }
    if (res.mismatch() != null) {
      for (String line : res.mismatch().describe()) {
        output.err().println(line);
      }
      output.err().flush();
    }

    Report r = new Report("checks");
    r.field("command", "verify");
    r.field("kind", name);
    if (kind.isGpu()) {
      r.field("device", table.firstDevice());
    }
    if (table.sharded()) {
      r.field("layout", table.layout(kind));
    }
    r.field("key_bits", keyBits);
    r.field("seed", table.seed);
    r.field("ops_requested", ops);
    r.field("ops_checked", res.opsChecked());
    r.field("batches", res.batches());
    r.field("batch", b);
    r.field("key_range", range);
    r.field("hot_keys", hotKeys);
    r.field("hot_fraction", hotFraction);
    r.field("zipf", zipf);
    r.field("zipf_batches", res.zipfBatches());
    r.field("hottest_key_share", res.hottestShare());
    r.field("resize_every", resizeEvery);
    r.field("explicit_resizes", res.resizes());
    r.field("size_checks", res.sizeChecks());
    r.field("table_resizes", resizes);
    r.field("mismatches", res.mismatches());
    r.field("first_mismatch", res.mismatch() == null ? null
        : "key " + res.mismatch().key() + ": " + res.mismatch().problem());
    r.field("seconds", res.seconds());
    r.field("result", res.mismatch() == null ? "PASS" : "FAIL");
    output.write(r);
    return res.mismatch() == null ? ExitCodes.OK : ExitCodes.ERROR;
  }

  private void validate() {
    table.check("--key-bits", b -> b.keyBits(keyBits));
    if (checkThreads < 0) {
      throw new ParameterException(spec.commandLine(), "--check-threads must be >= 0, got " + checkThreads);
    }
    if (ops < 1) {
      throw new ParameterException(spec.commandLine(), "--ops must be >= 1, got " + ops);
    }
    if (batch < 1 || batch > (1L << 28)) {
      throw new ParameterException(spec.commandLine(), "--batch must be in [1, 2^28], got " + batch);
    }
    if (keyRange != null && (keyRange < 1 || keyRange > (1L << 26))) {
      throw new ParameterException(spec.commandLine(), "--key-range must be in [1, 2^26], got " + keyRange);
    }
    if (hotKeys < 1) {
      throw new ParameterException(spec.commandLine(), "--hot-keys must be >= 1, got " + hotKeys);
    }
    if (!(zipf >= 0 && zipf <= 4)) {
      throw new ParameterException(spec.commandLine(), "--zipf must be in [0, 4], got " + zipf);
    }
    if (resizeEvery < 0) {
      throw new ParameterException(spec.commandLine(), "--resize-every must be >= 0, got " + resizeEvery);
    }
    if (!(hotFraction >= 0 && hotFraction <= 1)) {
      throw new ParameterException(spec.commandLine(), "--hot-fraction must be in [0, 1], got " + hotFraction);
    }
  }
}
