package org.wixlib.spark

import scala.collection.mutable.ArrayBuffer

import org.apache.spark.TaskContext
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Attribute, BindReferences, Expression, JoinedRow, UnsafeProjection}
import org.apache.spark.sql.catalyst.optimizer.{BuildLeft, BuildRight, BuildSide => SparkBuildSide}
import org.apache.spark.sql.catalyst.plans.{Inner, JoinType => PlanJoinType, LeftAnti}
import org.apache.spark.sql.catalyst.plans.physical.{BroadcastDistribution, BroadcastMode, Distribution, Partitioning, UnspecifiedDistribution}
import org.apache.spark.sql.execution.{BinaryExecNode, SparkPlan}
import org.apache.spark.sql.execution.metric.{SQLMetric, SQLMetrics}
import org.apache.spark.sql.types.{ByteType, DataType, IntegerType, ShortType}

/**
 * A broadcast hash join on a wixlib join: the build side is broadcast as Spark's rows
 * ([[WixlibBroadcastMode]]); each executor builds one wixlib join per broadcast ([[ExecutorJoins]], on the
 * kind of `spark.wixlib.join.kind`) and every task probes its partition of the streamed side in
 * batches of `spark.wixlib.join.batchRows` rows, one wixlib call per batch. Null keys match nothing;
 * the reserved keys -1 and -2 join like any other (their build rows are looked up beside the table).
 */
case class WixlibBroadcastJoinExec(
    leftKey: Expression,
    rightKey: Expression,
    joinType: PlanJoinType,
    buildSide: SparkBuildSide,
    left: SparkPlan,
    right: SparkPlan) extends BinaryExecNode {

  private def buildPlan: SparkPlan = if (buildSide == BuildLeft) left else right
  private def streamedPlan: SparkPlan = if (buildSide == BuildLeft) right else left
  private def buildKey: Expression = if (buildSide == BuildLeft) leftKey else rightKey
  private def streamedKey: Expression = if (buildSide == BuildLeft) rightKey else leftKey

  override def output: Seq[Attribute] = if (joinType == Inner) left.output ++ right.output else left.output

  override def outputPartitioning: Partitioning = streamedPlan.outputPartitioning

  override def requiredChildDistribution: Seq[Distribution] = {
    val mode = WixlibBroadcastMode(BindReferences.bindReference(buildKey, buildPlan.output), joinType == Inner)
    if (buildSide == BuildLeft) BroadcastDistribution(mode) :: UnspecifiedDistribution :: Nil
    else UnspecifiedDistribution :: BroadcastDistribution(mode) :: Nil
  }

  override lazy val metrics: Map[String, SQLMetric] =
    Map("numOutputRows" -> SQLMetrics.createMetric(sparkContext, "number of output rows"))

  override protected def doExecute(): RDD[InternalRow] = {
    val numOutputRows = longMetric("numOutputRows")
    val broadcast = buildPlan.executeBroadcast[Array[InternalRow]]()
    val mode = WixlibBroadcastMode(BindReferences.bindReference(buildKey, buildPlan.output), joinType == Inner)
    val kind = conf.getConfString(WixlibJoins.KIND, "auto")
    val batchRows = conf.getConfString(WixlibJoins.BATCH_ROWS, WixlibJoins.DEFAULT_BATCH_ROWS.toString).toInt
    val keyOf = streamedKey
    val streamedOutput = streamedPlan.output
    val joined = output
    val (tpe, inner, buildsLeft) = (joinType, joinType == Inner, buildSide == BuildLeft)
    streamedPlan.execute().mapPartitions { rows =>
      val buildRows = broadcast.value
      val side = mode.side(buildRows)
      val lease = ExecutorJoins.INSTANCE.acquire(broadcast.id, side, kind)
      Option(TaskContext.get()).foreach(_.addTaskCompletionListener[Unit](_ => lease.close()))
      val key = UnsafeProjection.create(keyOf :: Nil, streamedOutput)
      val result = if (inner) UnsafeProjection.create(joined, joined) else null
      new SqlProbe(rows, buildRows, side, lease, key, keyOf.dataType, tpe, buildsLeft, result, math.max(1, batchRows))
        .map { r => numOutputRows += 1; r }
    }
  }

  override protected def withNewChildrenInternal(newLeft: SparkPlan, newRight: SparkPlan): WixlibBroadcastJoinExec =
    copy(left = newLeft, right = newRight)
}

/**
 * How a [[WixlibBroadcastJoinExec]]'s build side is broadcast: as Spark's broadcast rows (an array of
 * internal rows, which Spark sizes and ships as it does for its own joins), without null keys, the rows
 * of the reserved keys -1 and -2 after the others; inner joins keep whole rows, semi and anti joins
 * only the key. Row i of the array is build row i of the wixlib join ([[BuildSide]]'s numbering).
 *
 * @param key the build key, bound to the build side's output
 */
final case class WixlibBroadcastMode(key: Expression, keepRows: Boolean) extends BroadcastMode {
  override def transform(rows: Array[InternalRow]): Array[InternalRow] = transform(rows.iterator, None)

  override def transform(rows: Iterator[InternalRow], sizeHint: Option[Long]): Array[InternalRow] = {
    val kept = new ArrayBuffer[InternalRow]()
    val reserved = new ArrayBuffer[InternalRow]()
    val project = UnsafeProjection.create(key :: Nil)
    rows.foreach { row =>
      val k = project(row)
      if (!k.isNullAt(0)) {
        val copy = if (keepRows) row.copy() else k.copy()
        if (BuildSide.isReserved(SqlProbe.longOf(k, key.dataType))) reserved += copy else kept += copy
      }
    }
    (kept ++= reserved).toArray
  }

  override def canonicalized: BroadcastMode = copy(key = key.canonicalized)

  /** The keys of broadcast rows as a [[BuildSide]]: worked out once per JVM and broadcast. */
  def side(rows: Array[InternalRow]): BuildSide = WixlibBroadcastMode.sides.synchronized {
    var s = WixlibBroadcastMode.sides.get(rows)
    if (s == null) {
      val keyOf: InternalRow => Long =
        if (keepRows) { val p = UnsafeProjection.create(key :: Nil); r => SqlProbe.longOf(p(r), key.dataType) }
        else r => SqlProbe.longOf(r, key.dataType)
      val keys = rows.map(keyOf)
      val normal = keys.indexWhere(k => BuildSide.isReserved(k)) match { case -1 => keys.length; case i => i }
      s = BuildSide.ofKeys(keys.take(normal), keys.drop(normal))
      WixlibBroadcastMode.sides.put(rows, s)
    }
    s
  }
}

private object WixlibBroadcastMode {
  /** The build sides of the broadcast values this JVM holds, by the value's identity. */
  val sides = new java.util.WeakHashMap[Array[InternalRow], BuildSide]()
}

/**
 * One task's probe: streamed rows are read in batches (copied: the input reuses its row objects), each
 * batch's keys go to the wixlib join in one call, and the batch's output rows are handed out before the
 * next batch is read. The lease is released when the input ends (and by the task's completion listener).
 */
private[spark] final class SqlProbe(
    input: Iterator[InternalRow],
    buildRows: Array[InternalRow],
    side: BuildSide,
    lease: ExecutorJoins#Lease,
    key: UnsafeProjection,
    keyType: DataType,
    joinType: PlanJoinType,
    buildsLeft: Boolean,
    result: UnsafeProjection,
    batchRows: Int) extends Iterator[InternalRow] {

  private val join = lease.join()
  private val rows = new Array[InternalRow](batchRows)
  private val keys = new Array[Long](batchRows)
  private val reserved = new Array[Boolean](batchRows)
  private val narrow = if (join.keyBits() == 32) new Array[Int](batchRows) else null
  private val wide = if (join.keyBits() == 64) new Array[Long](batchRows) else null
  private val matches = new Array[Int](batchRows)
  private val matched = new Array[Boolean](batchRows)
  private val pair = new JoinedRow()
  private var out = new ArrayBuffer[InternalRow]()
  private var at = 0  // the next row of out to hand out
  private var done = false

  override def hasNext: Boolean = {
    while (at == out.length) {
      if (done || !input.hasNext) {
        done = true
        lease.close()
        return false
      }
      out = new ArrayBuffer[InternalRow]()
      at = 0
      probe(read())
    }
    true
  }

  override def next(): InternalRow = {
    if (!hasNext) throw new NoSuchElementException()
    at += 1
    out(at - 1)
  }

  /** Reads up to batchRows rows and stages their keys; a key no join row can have matches nothing. */
  private def read(): Int = {
    var n = 0
    while (n < batchRows && input.hasNext) {
      val r = input.next().copy()
      val k = key(r)
      var staged = SqlProbe.NoMatch
      reserved(n) = false
      if (!k.isNullAt(0)) {
        val v = SqlProbe.longOf(k, keyType)
        keys(n) = v
        if (BuildSide.isReserved(v)) reserved(n) = true
        else if (narrow == null || v == v.toInt) staged = v
      }
      rows(n) = r
      stage(n, staged)
      n += 1
    }
    var i = n
    while (i < batchRows) {
      rows(i) = null
      stage(i, SqlProbe.NoMatch)
      i += 1
    }
    n
  }

  private def stage(i: Int, k: Long): Unit = if (narrow != null) narrow(i) = k.toInt else wide(i) = k

  private def probe(n: Int): Unit = {
    if (joinType == Inner) {
      val pairs = if (narrow != null) join.probe(narrow) else join.probe(wide)
      val p = pairs.probeRows()
      val b = pairs.buildRows()
      var i = 0
      while (i < p.length) {
        out += merged(rows(p(i)), buildRows(b(i)))
        i += 1
      }
      i = 0
      while (i < n) {
        if (reserved(i)) side.reservedRows(keys(i)).foreach(r => out += merged(rows(i), buildRows(r)))
        i += 1
      }
    } else {
      val count = if (narrow != null) join.semi(narrow, false, matches) else join.semi(wide, false, matches)
      java.util.Arrays.fill(matched, 0, n, false)
      var i = 0
      while (i < count) {
        matched(matches(i)) = true
        i += 1
      }
      val anti = joinType == LeftAnti
      i = 0
      while (i < n) {
        val m = if (reserved(i)) side.reservedRows(keys(i)).nonEmpty else matched(i)
        if (m != anti) out += rows(i)
        i += 1
      }
    }
  }

  /** The output row of a pair: the left side's columns, then the right side's. */
  private def merged(streamed: InternalRow, build: InternalRow): InternalRow =
    result(if (buildsLeft) pair(build, streamed) else pair(streamed, build)).copy()
}

private[spark] object SqlProbe {
  /** A staged key that matches nothing: -1 is reserved in wixlib, so no join row has it. */
  val NoMatch: Long = -1L

  /** The key of a one-column key row as a long (byte, short, int or long). */
  def longOf(row: InternalRow, t: DataType): Long = t match {
    case ByteType => row.getByte(0).toLong
    case ShortType => row.getShort(0).toLong
    case IntegerType => row.getInt(0).toLong
    case _ => row.getLong(0)
  }
}
