package dev.distlock.faults;

/**
 * Checks fencing tokens in the order they were granted: each must exceed every earlier
 * one.
 */
public final class TokenOrder {

	private TokenOrder() {
	}

	/**
	 * Counts tokens that are not greater than the largest token granted before them.
	 * @param tokensInGrantOrder the tokens, in the order of their grants
	 * @return how many broke the order
	 */
	public static int notGreaterThanEarlier(long... tokensInGrantOrder) {
		int broken = 0;
		long max = Long.MIN_VALUE;
		for (int i = 0; i < tokensInGrantOrder.length; i++) {
			if (i > 0 && tokensInGrantOrder[i] <= max) {
				broken++;
			}
			max = Math.max(max, tokensInGrantOrder[i]);
		}
		return broken;
	}

}
