package org.wixlib.spark

import org.apache.spark.sql.{SparkSession, SparkSessionExtensions}
import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.catalyst.optimizer.{BuildLeft, BuildRight, JoinSelectionHelper, BuildSide => SparkBuildSide}
import org.apache.spark.sql.catalyst.planning.ExtractEquiJoinKeys
import org.apache.spark.sql.catalyst.plans.{Inner, JoinType => PlanJoinType, LeftAnti, LeftSemi}
import org.apache.spark.sql.catalyst.plans.logical.{BROADCAST, JoinHint, LogicalPlan}
import org.apache.spark.sql.execution.{SparkPlan, SparkStrategy}
import org.apache.spark.sql.types.{ByteType, IntegerType, LongType, ShortType}

/**
 * Spark SQL extension: with `spark.sql.extensions=org.wixlib.spark.WixlibSqlExtensions` and
 * `spark.wixlib.join.enabled=true`, broadcast hash joins of one byte, short, int or long key per
 * side (inner, left semi, left anti; no other condition) run on wixlib joins
 * ([[WixlibBroadcastJoinExec]]); every other join is planned by Spark as before.
 */
class WixlibSqlExtensions extends (SparkSessionExtensions => Unit) {
  override def apply(extensions: SparkSessionExtensions): Unit =
    extensions.injectPlannerStrategy(session => new WixlibJoinStrategy(session))
}

object WixlibSqlExtensions {
  /** Plans wixlib joins when true (default false: the extension alone changes no plan). */
  val Enabled = "spark.wixlib.join.enabled"
}

/**
 * Plans a join as a [[WixlibBroadcastJoinExec]] where Spark would broadcast one side: that side has a
 * broadcast hint, or else its estimated size is within `spark.sql.autoBroadcastJoinThreshold`, and
 * the join type may build on it (inner: either side, the right one first; semi and anti: the right).
 * A hint for another strategy (shuffle hash, merge, ...) leaves the join to Spark.
 */
final class WixlibJoinStrategy(session: SparkSession) extends SparkStrategy with JoinSelectionHelper {
  override def apply(plan: LogicalPlan): Seq[SparkPlan] = plan match {
    case ExtractEquiJoinKeys(joinType, Seq(leftKey), Seq(rightKey), None, _, left, right, hint)
        if enabled && supported(joinType) && integral(leftKey) && leftKey.dataType == rightKey.dataType &&
          !otherStrategyHinted(hint) =>
      buildSide(joinType, left, right, hint).toSeq.map { side =>
        WixlibBroadcastJoinExec(leftKey, rightKey, joinType, side, planLater(left), planLater(right))
      }
    case _ => Nil
  }

  private def enabled: Boolean = session.conf.get(WixlibSqlExtensions.Enabled, "false").trim.toBoolean

  private def supported(t: PlanJoinType): Boolean = t == Inner || t == LeftSemi || t == LeftAnti

  /** A hint for a join strategy other than broadcast (shuffle hash, merge, ...): Spark follows it. */
  private def otherStrategyHinted(hint: JoinHint): Boolean =
    Seq(hint.leftHint, hint.rightHint).flatten.exists(_.strategy.exists(_ != BROADCAST))

  private def integral(e: Expression): Boolean = e.dataType match {
    case ByteType | ShortType | IntegerType | LongType => true
    case _ => false
  }

  private def buildSide(t: PlanJoinType, left: LogicalPlan, right: LogicalPlan, hint: JoinHint): Option[SparkBuildSide] = {
    val conf = session.sessionState.conf
    val leftAllowed = t == Inner
    if (hintToBroadcastRight(hint)) Some(BuildRight)
    else if (leftAllowed && hintToBroadcastLeft(hint)) Some(BuildLeft)
    else if (!hintToNotBroadcastRight(hint) && canBroadcastBySize(right, conf)) Some(BuildRight)
    else if (leftAllowed && !hintToNotBroadcastLeft(hint) && canBroadcastBySize(left, conf)) Some(BuildLeft)
    else None
  }
}
