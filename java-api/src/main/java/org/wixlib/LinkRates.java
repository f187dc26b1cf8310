package org.wixlib;

/**
 * What the path between the host and a device carries, from {@link Wixlib#linkRates}; rates in GB/s
 * (10^9 bytes per second), best of a few repetitions.
 *
 * <p>They bound the bulk calls of a GPU table by where the caller's arrays live: device memory
 * ({@link DeviceBuffer}) is bound by the kernels alone; page-locked host memory ({@link PinnedMemory})
 * by the copies over the link, {@code hostToDevice} for inputs and {@code deviceToHost} for results,
 * {@code bothDirections} when both flow at once; ordinary host memory (Java arrays, other segments) in
 * addition by {@code hostCopy}, the rate at which the library's staging threads copy it into and out of
 * page-locked buffers ({@code hostCopyJoin} for a {@link Join}'s columns, which the whole host's cores
 * copy).
 *
 * @param hostToDevice page-locked host memory to the device
 * @param deviceToHost the device to page-locked host memory
 * @param bothDirections bytes moved per second in both directions at once, summed
 * @param hostCopy ordinary to page-locked host memory with the staging threads
 * @param hostCopyThreads the staging threads of that copy (a GPU table's default)
 * @param hostCopyJoin the same copy with a GPU join's copy threads
 * @param hostCopyJoinThreads a GPU join's copy threads (the whole host, by default)
 */
public record LinkRates(double hostToDevice, double deviceToHost, double bothDirections, double hostCopy,
    int hostCopyThreads, double hostCopyJoin, int hostCopyJoinThreads) {}
