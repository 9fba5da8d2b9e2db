! libvine-mpi under a Fortran program (tests/pmpi/run_fortran.sh): the same
! nonblocking and persistent collectives through both of MPI's Fortran
! interfaces, each on its own communicator, "use mpi" on fortran_legacy and
! "use mpi_f08" on fortran_f08, completed with MPI_Waitall and MPI_Wait.
! MPICH's mpi_f08 bindings complete requests through PMPI_Wait, past
! libvine-mpi, so those starts must go to MPI; its "use mpi" bindings call
! MPI_Wait, and vine serves them.  Every result is checked against its
! closed form; any error aborts.  Rank 0 prints "fortran: ok" at the end.
! VINE_MPI4 (set where MPI's C header is MPI 4) adds MPI_Allreduce_init.

module fortran_checks
  implicit none
  integer, parameter :: n = 5000, rounds = 3
contains
  ! Stops the job when got(i) differs from the sum over ranks of rank + i + k.
  subroutine check_sum(what, got, p, k)
    character(len=*), intent(in) :: what
    double precision, intent(in) :: got(n)
    integer, intent(in) :: p, k
    integer :: i
    do i = 1, n
      if (got(i) /= dble(p) * dble(i + k) + dble(p * (p - 1) / 2)) then
        print *, 'fortran: wrong ', what, ' at', i, ':', got(i)
        call abort_job()
      end if
    end do
  end subroutine

  ! Stops the job when got(i) differs from root + i + k.
  subroutine check_bcast(what, got, root, k)
    character(len=*), intent(in) :: what
    double precision, intent(in) :: got(n)
    integer, intent(in) :: root, k
    integer :: i
    do i = 1, n
      if (got(i) /= dble(root + i + k)) then
        print *, 'fortran: wrong ', what, ' at', i, ':', got(i)
        call abort_job()
      end if
    end do
  end subroutine

  subroutine abort_job()
    use mpi, only: MPI_Abort, MPI_COMM_WORLD
    integer :: ierr
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end subroutine

  subroutine fill(x, rank, k)
    double precision, intent(out) :: x(n)
    integer, intent(in) :: rank, k
    integer :: i
    do i = 1, n
      x(i) = dble(rank + i + k)
    end do
  end subroutine
end module

subroutine legacy_part(rank, p)
  use mpi
  use fortran_checks
  implicit none
  integer, intent(in) :: rank, p
  integer :: comm, ierr, k, reqs(2), req
  double precision, asynchronous :: a(n), b(n), c(n)

  call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
  call MPI_Comm_set_name(comm, 'fortran_legacy', ierr)
  ! A blocking call first: a nonblocking one on a communicator that vine
  ! has not set up goes to MPI anyway (docs/api.md).
  call fill(c, rank, 0)
  call MPI_Bcast(c, n, MPI_DOUBLE_PRECISION, 0, comm, ierr)
  call check_bcast('legacy bcast', c, 0, 0)
  do k = 1, rounds
    call fill(a, rank, k)
    call fill(c, rank, k)
    call MPI_Iallreduce(a, b, n, MPI_DOUBLE_PRECISION, MPI_SUM, comm, reqs(1), ierr)
    call MPI_Ibcast(c, n, MPI_DOUBLE_PRECISION, p - 1, comm, reqs(2), ierr)
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
    call check_sum('legacy iallreduce', b, p, k)
    call check_bcast('legacy ibcast', c, p - 1, k)
  end do
#ifdef VINE_MPI4
  call MPI_Allreduce_init(a, b, n, MPI_DOUBLE_PRECISION, MPI_SUM, comm, MPI_INFO_NULL, req, ierr)
  do k = 1, rounds
    call fill(a, rank, 10 + k)
    call MPI_Start(req, ierr)
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    call check_sum('legacy allreduce_init', b, p, 10 + k)
  end do
  call MPI_Request_free(req, ierr)
#else
  req = MPI_REQUEST_NULL
#endif
  call MPI_Comm_free(comm, ierr)
end subroutine

subroutine f08_part(rank, p)
  use mpi_f08
  use fortran_checks
  implicit none
  integer, intent(in) :: rank, p
  type(MPI_Comm) :: comm
  type(MPI_Request) :: reqs(2), req
  integer :: k
  double precision, asynchronous :: a(n), b(n), c(n)

  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  call MPI_Comm_set_name(comm, 'fortran_f08')
  call fill(c, rank, 0)
  call MPI_Bcast(c, n, MPI_DOUBLE_PRECISION, 0, comm)
  call check_bcast('f08 bcast', c, 0, 0)
  do k = 1, rounds
    call fill(a, rank, k)
    call fill(c, rank, k)
    call MPI_Iallreduce(a, b, n, MPI_DOUBLE_PRECISION, MPI_SUM, comm, reqs(1))
    call MPI_Ibcast(c, n, MPI_DOUBLE_PRECISION, p - 1, comm, reqs(2))
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
    call check_sum('f08 iallreduce', b, p, k)
    call check_bcast('f08 ibcast', c, p - 1, k)
  end do
#ifdef VINE_MPI4
  call MPI_Allreduce_init(a, b, n, MPI_DOUBLE_PRECISION, MPI_SUM, comm, MPI_INFO_NULL, req)
  do k = 1, rounds
    call fill(a, rank, 10 + k)
    call MPI_Start(req)
    call MPI_Wait(req, MPI_STATUS_IGNORE)
    call check_sum('f08 allreduce_init', b, p, 10 + k)
  end do
  call MPI_Request_free(req)
#else
  req = MPI_REQUEST_NULL
#endif
  call MPI_Comm_free(comm)
end subroutine

program fortran
  use mpi
  implicit none
  integer :: rank, p, ierr
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  call legacy_part(rank, p)
  call f08_part(rank, p)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a)', 'fortran: ok'
  call MPI_Finalize(ierr)
end program
