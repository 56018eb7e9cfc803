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
