package org.wixlib;

/** {@link InPlaceCallsTest}'s cases on the CPU tables' own path: the reused off-heap buffer. */
class StagedCallsTest extends InPlaceCallsTest {
  @Override
  boolean inPlace() {
    return false;
  }
}
