/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.distlock.sample.checkin;

import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.distlock.DistributedLock;
import dev.distlock.LockContext;
import dev.distlock.fencing.FencedJdbc;
import dev.distlock.fencing.StaleFencingTokenException;

/**
 * Hands out check-in queue positions: one queue per gender, numbered from 1 without gaps.
 * <p>
 * The next position is {@code max(queue_position) + 1}, read and inserted in one
 * transaction. Two concurrent check-ins of the same gender, in one instance or in two,
 * would read the same maximum and get the same number; a {@code synchronized} method
 * would only help within one JVM. So each check-in holds the distributed lock
 * {@code lock:check-in:<gender>}, and the lock must wrap the commit: distlock's advisor
 * runs outside Spring's transaction advisor, so the lock is taken before the transaction
 * begins and released after it commits. Released any earlier, the next holder would read
 * the maximum before this insert is visible.
 * <p>
 * A lock's lease can still run out while its holder is paused (a long GC, a stalled VM),
 * and the next holder then runs at the same time. So the write is fenced: before
 * inserting, a check-in moves its queue's head ({@code queue_head}) through distlock's
 * {@link FencedJdbc}, in one statement that applies only if no newer fencing token than
 * the lock's is stored in the row ({@code ... where gender = ? and fence <= :token}), and
 * stores the token with it. A holder that resumes after a newer holder has written is
 * refused by the database ({@link StaleFencingTokenException}), and the check-in fails
 * with a {@link LockLostException} instead of inserting a duplicate. (The fence orders
 * writes, it does not make the read safe on its own: the lock wrapping the commit does
 * that.)
 */
@Service
public class CheckInService {

	private final CheckInRepository checkIns;

	private final FencedJdbc fencedJdbc;

	private final Clock clock;

	CheckInService(CheckInRepository checkIns, FencedJdbc fencedJdbc, Clock clock) {
		this.checkIns = checkIns;
		this.fencedJdbc = fencedJdbc;
		this.clock = clock;
	}

	/**
	 * Gives the student the next position of their queue, or the position they already
	 * have if their phone number checked in before.
	 * @param request the validated check-in
	 * @return the student's position and how many are ahead
	 * @throws dev.distlock.LockNotAcquiredException if other check-ins kept the queue
	 * locked for longer than {@code sample.check-in.lock-wait-time}
	 * @throws LockLostException if a holder with a newer fencing token has written to the
	 * queue since this check-in's lock was granted; nothing is stored
	 */
	@DistributedLock(name = "check-in", key = "'lock:check-in:' + #request.gender()",
			waitTime = "${sample.check-in.lock-wait-time:5s}")
	@Transactional
	public QueueTicket checkIn(CheckInRequest request) {
		Optional<CheckIn> existing = this.checkIns.findByPhone(request.phone());
		if (existing.isPresent()) {
			return ticket(existing.get(), true);
		}
		long fence = LockContext.fencingToken();
		int position = this.checkIns.maxPosition(request.gender()) + 1;
		try {
			this.fencedJdbc.update("queue_head")
				.set("last_position", position)
				.where("gender", request.gender().name())
				.execute();
		}
		catch (StaleFencingTokenException ex) {
			throw new LockLostException(request.gender(), fence, ex);
		}
		CheckIn checkIn = new CheckIn(request.phone(), request.studentName(), request.gender(), request.arrivalDate(),
				position, this.clock.instant().truncatedTo(ChronoUnit.MILLIS), fence);
		this.checkIns.insert(checkIn);
		return ticket(checkIn, false);
	}

	/**
	 * Finds the position of a phone number that has checked in.
	 * @param phone the phone number
	 * @return the ticket, if the number has checked in
	 */
	@Transactional(readOnly = true)
	public Optional<QueueTicket> find(String phone) {
		return this.checkIns.findByPhone(phone).map((checkIn) -> ticket(checkIn, true));
	}

	private QueueTicket ticket(CheckIn checkIn, boolean alreadyQueued) {
		int ahead = this.checkIns.countAhead(checkIn.gender(), checkIn.position());
		return new QueueTicket(checkIn.phone(), checkIn.gender(), checkIn.position(), ahead, alreadyQueued);
	}

}
