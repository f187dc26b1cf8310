package org.wixlib.spark

import scala.collection.mutable.ArrayBuffer
import scala.jdk.CollectionConverters._

import org.apache.spark.TaskContext
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Attribute, BindReferences, Expression, JoinedRow, UnsafeProjection}
import org.apache.spark.sql.catalyst.optimizer.{BuildLeft, BuildRight, BuildSide => SparkBuildSide}
import org.apache.spark.sql.catalyst.plans.{Inner, JoinType => PlanJoinType, LeftSemi}
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

  /** How the build side is broadcast: its rows (inner joins) or keys, the key bound to its output. */
  private def mode = WixlibBroadcastMode(BindReferences.bindReference(buildKey, buildPlan.output), joinType == Inner)

  override def requiredChildDistribution: Seq[Distribution] =
    if (buildSide == BuildLeft) BroadcastDistribution(mode) :: UnspecifiedDistribution :: Nil
    else UnspecifiedDistribution :: BroadcastDistribution(mode) :: Nil

  override lazy val metrics: Map[String, SQLMetric] =
    Map("numOutputRows" -> SQLMetrics.createMetric(sparkContext, "number of output rows"))

  override protected def doExecute(): RDD[InternalRow] = {
    val numOutputRows = longMetric("numOutputRows")
    val broadcast = buildPlan.executeBroadcast[Array[InternalRow]]()
    val broadcastMode = mode
    val kind = conf.getConfString(WixlibJoins.KIND, "auto")
    val batchRows = conf.getConfString(WixlibJoins.BATCH_ROWS, WixlibJoins.DEFAULT_BATCH_ROWS.toString).toInt
    val keyOf = streamedKey
    val streamedOutput = streamedPlan.output
    val joined = output
    val (tpe, inner, buildsLeft) = (SqlProbe.joinType(joinType), joinType == Inner, buildSide == BuildLeft)
    streamedPlan.execute().mapPartitions { rows =>
      val buildRows = broadcast.value
      val side = broadcastMode.side(buildRows)
      val lease = ExecutorJoins.INSTANCE.acquire(broadcast.id, side, kind)
      Option(TaskContext.get()).foreach(_.addTaskCompletionListener[Unit](_ => lease.close()))
      val key = UnsafeProjection.create(keyOf :: Nil, streamedOutput)
      val result = if (inner) UnsafeProjection.create(joined, joined) else null
      new SqlProbe(rows.asJava, buildRows, side, lease, key, keyOf.dataType, tpe, buildsLeft, result,
        math.max(1, batchRows)).asScala.map { r => numOutputRows += 1; r }
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
 * One task's probe of Spark's internal rows in batches ([[BatchProbe]]): rows are copied as they are
 * read (the input reuses its row objects), keys extracted by a projection, and an inner join's pairs
 * projected into output rows, the left side's columns first.
 */
private[spark] final class SqlProbe(
    input: java.util.Iterator[InternalRow],
    buildRows: Array[InternalRow],
    side: BuildSide,
    lease: ExecutorJoins#Lease,
    keyOf: UnsafeProjection,
    keyType: DataType,
    joinType: JoinType,
    buildsLeft: Boolean,
    result: UnsafeProjection,
    batchRows: Int) extends BatchProbe[InternalRow](input, side, lease, joinType, batchRows) {

  private val pair = new JoinedRow()

  override protected def keep(row: InternalRow): InternalRow = row.copy()

  override protected def key(row: InternalRow, into: Array[Long]): Boolean = {
    val k = keyOf(row)
    if (k.isNullAt(0)) false
    else {
      into(0) = SqlProbe.longOf(k, keyType)
      true
    }
  }

  override protected def merged(probe: InternalRow, buildRow: Int): InternalRow = {
    val build = buildRows(buildRow)
    result(if (buildsLeft) pair(build, probe) else pair(probe, build)).copy()
  }
}

private[spark] object SqlProbe {
  /** The wixlib join type of a planned join type (inner, left semi or left anti). */
  def joinType(t: PlanJoinType): JoinType = t match {
    case Inner => JoinType.INNER
    case LeftSemi => JoinType.LEFT_SEMI
    case _ => JoinType.LEFT_ANTI
  }

  /** The key of a one-column key row as a long (byte, short, int or long). */
  def longOf(row: InternalRow, t: DataType): Long = t match {
    case ByteType => row.getByte(0).toLong
    case ShortType => row.getShort(0).toLong
    case IntegerType => row.getInt(0).toLong
    case _ => row.getLong(0)
  }
}
