package dev.distlock.sample.checkin;

/**
 * What a student is told after checking in.
 *
 * @param phone the student's phone number
 * @param gender the queue
 * @param position the place in the queue, from 1
 * @param ahead how many students of the same queue are ahead
 * @param alreadyQueued whether the phone number had checked in before and got its
 * existing place back
 */
public record QueueTicket(String phone, Gender gender, int position, int ahead, boolean alreadyQueued) {

}
