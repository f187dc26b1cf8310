/**
 * Spark DataFrame joins on wixlib: the build side is broadcast, each executor builds one wixlib
 * {@link org.wixlib.Join} per broadcast and probes its partitions in column batches. Entry point:
 * {@link org.wixlib.spark.WixlibJoins}.
 */
package org.wixlib.spark;
