-- Runs unchanged on H2, MariaDB and PostgreSQL: at every start on the embedded H2
-- (spring.sql.init.mode=embedded), and on MariaDB / PostgreSQL with spring.sql.init.mode=always.

-- Scenario 2. There is deliberately no unique constraint on (gender, queue_position): the
-- distributed lock is what keeps positions unique, and the tests must be able to see duplicates
-- when the lock is misplaced. A production schema would add one as a second line of defence,
-- turning the race into failed requests instead of duplicate numbers.
-- fence: the fencing token of the lock under which the row was inserted.
create table if not exists check_in (
	phone varchar(16) not null primary key,
	student_name varchar(100) not null,
	gender varchar(6) not null,
	arrival_date date not null,
	queue_position integer not null,
	checked_in_at timestamp(3) not null,
	fence bigint not null
);
create index if not exists check_in_gender_position on check_in (gender, queue_position);

-- The last position given in each queue and the fencing token of the lock holder that gave it
-- (distlock's fence column: bigint not null default 0, no index). Every check-in moves its queue's
-- head through FencedJdbc ("... where gender = ? and fence <= :token"), so a holder whose lease ran
-- out, once a newer holder has written, can no longer write.
create table if not exists queue_head (
	gender varchar(6) not null primary key,
	last_position integer not null,
	fence bigint not null default 0
);
insert into queue_head (gender, last_position, fence)
	select 'FEMALE', 0, 0 where not exists (select 1 from queue_head where gender = 'FEMALE');
insert into queue_head (gender, last_position, fence)
	select 'MALE', 0, 0 where not exists (select 1 from queue_head where gender = 'MALE');

-- Scenario 3.
create table if not exists customer_order (
	id varchar(36) not null primary key,
	status varchar(10) not null,
	created_at timestamp(3) not null,
	closed_at timestamp(3) null
);
create index if not exists customer_order_status_created on customer_order (status, created_at);
