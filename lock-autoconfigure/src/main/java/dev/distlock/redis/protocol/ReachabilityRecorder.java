package dev.distlock.redis.protocol;

import java.util.function.Supplier;

/**
 * Runs the lock's commands one at a time, recording each in the client's
 * {@link RedisReachability} under the key that tells its node: sent, then answered or
 * failed. An error reply that means misconfiguration counts as an answer, with what to
 * fix; a failure of an interrupted caller, or an {@link Error}, says nothing about Redis.
 */
final class ReachabilityRecorder {

	private final RedisReachability reachability;

	/**
	 * Creates the recorder of one client.
	 * @param reachability where to record the commands
	 */
	ReachabilityRecorder(RedisReachability reachability) {
		this.reachability = reachability;
	}

	/**
	 * Runs one command, recording it in the client's reachability.
	 * @param key a Redis key of the command (on a cluster, all its keys share this one's
	 * slot)
	 * @param command the command
	 * @return what the command returned
	 */
	<T> T call(String key, Supplier<T> command) {
		long sent = this.reachability.sending(key);
		T result;
		try {
			result = command.get();
		}
		catch (RuntimeException ex) {
			// An error reply that means misconfiguration is an answer; an interrupted
			// caller says nothing about Redis.
			String misconfiguration = RedisErrors.fix(ex);
			this.reachability.done(key, sent, misconfiguration != null, Thread.currentThread().isInterrupted(),
					misconfiguration);
			throw ex;
		}
		catch (Error ex) {
			this.reachability.done(key, sent, false, true, null);
			throw ex;
		}
		this.reachability.done(key, sent, true, true, null);
		return result;
	}

}
