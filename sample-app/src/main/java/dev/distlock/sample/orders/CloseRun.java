package dev.distlock.sample.orders;

/**
 * What one tick of the close-expired-orders job did on this instance.
 *
 * @param ran whether this instance did the work (otherwise the job's lock was held: by
 * another instance running the tick, or kept for the minimum hold time after a run)
 * @param closed how many orders this instance closed
 */
public record CloseRun(boolean ran, int closed) {

	/**
	 * The tick was run here.
	 * @param closed how many orders were closed
	 * @return the run
	 */
	public static CloseRun ran(int closed) {
		return new CloseRun(true, closed);
	}

	/**
	 * The tick was skipped here because the job's lock was held.
	 * @return the run
	 */
	public static CloseRun skipped() {
		return new CloseRun(false, 0);
	}

}
